import "server-only";
import { auth, findGatewayTarget, introspectGatewayAccessToken, type GatewayTokenIntrospection } from "@/lib/identity/auth/server";
import { hashToken } from "@/lib/core/crypto";
import { consoleOrigin, resourceOfMetadataPath } from "@/lib/identity/auth";
import { notFound } from "@/lib/core/errors";
import { cacheEpoch, forgetCache, piece } from "@/lib/core/runtime";
import { GATEWAY_SCOPE, GATEWAY_SCOPES, parseGatewayResource, resourceCovers, type GatewayGrant } from "./index";
import * as q from "./queries";

export { GATEWAY_CONSENT_PAGE, GATEWAY_LOGIN_PAGE } from "@/lib/identity/auth/server";

const CACHE_MS = 10_000;
const CACHE_MAX = 10_000;
// Verdicts by token hash and endpoint: a gateway call costs no query while they last. Revocation clears it on every instance.
const cache = () => piece("gatewayTokenCache", () => new Map<string, { grant: GatewayGrant | null; until: number }>());

/**
 * Who a gateway access token acts for at `resource` (a gateway endpoint URL), or null for anything
 * that is not a valid, unexpired, unrevoked access token this console issued for that endpoint
 * (or for the aggregated endpoint of its workspace) with the `gateway` scope. Verdicts are cached
 * for at most 10 s (and never past the token's expiry); a revocation at /oauth2/revoke empties
 * the cache here and on every other instance.
 */
export async function verifyGatewayAccessToken(token: string, resource: string): Promise<GatewayGrant | null> {
  if (!token || token.length > 4096 || !parseGatewayResource(resource)) return null;
  const key = `${hashToken(token)} ${resource}`;
  const now = Date.now();
  const hit = cache().get(key);
  if (hit && hit.until > now) return hit.grant;
  const epoch = cacheEpoch("gatewayTokenCache");
  const info = await introspectGatewayAccessToken(token);
  const grant = grantFor(info, resource, now);
  if (epoch === cacheEpoch("gatewayTokenCache")) {
    if (cache().size >= CACHE_MAX) cache().clear();
    cache().set(key, { grant, until: Math.min(now + CACHE_MS, info.exp ? info.exp * 1000 : now + CACHE_MS) });
  }
  return grant;
}

/**
 * Disconnects a host for good: the person's refresh tokens for that client are revoked and its
 * access tokens and consent deleted, on every instance at once (for the gateway's "disconnect").
 * The host must send the person through consent again to come back.
 */
export async function revokeGatewayGrants({ userId, clientId }: { userId: string; clientId: string }): Promise<void> {
  await q.revokeGrants({ userId, clientId });
  await forgetCache("gatewayTokenCache");
}

function grantFor(info: GatewayTokenIntrospection, resource: string, now: number): GatewayGrant | null {
  if (!info.active || !info.sub || !info.client_id || (info.exp !== undefined && info.exp * 1000 <= now)) return null;
  const scopes = (info.scope ?? "").split(" ").filter(Boolean);
  if (!scopes.includes(GATEWAY_SCOPE)) return null;
  const audience = typeof info.aud === "string" ? [info.aud] : (info.aud ?? []);
  const granted = audience.find((aud) => resourceCovers(aud, resource));
  return granted ? { userId: info.sub, clientId: info.client_id, scopes, resource: granted } : null;
}

/** The console's OAuth issuer: better-auth's base URL on the console's public origin. */
export function gatewayIssuer(request: Request): string {
  return `${consoleOrigin(request)}/api/auth`;
}

/**
 * Protected Resource Metadata (RFC 9728) of the endpoint a `/.well-known/oauth-protected-resource/mcp/…`
 * request is about. Served for any well-formed endpoint path (whether it exists is not told here).
 */
export function protectedResourceMetadata(request: Request) {
  const resource = resourceOfMetadataPath(consoleOrigin(request), new URL(request.url).pathname);
  if (!resource) throw notFound("Gateway endpoint");
  return {
    resource: resource.url,
    authorization_servers: [gatewayIssuer(request)],
    scopes_supported: [...GATEWAY_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: `Switchboard ${resource.workspaceSlug}${resource.serverName === null ? "" : `/${resource.serverName}`}`,
  };
}

/** Authorization server metadata (RFC 8414) as the OAuth provider plugin serves it under the issuer's path. */
export function authorizationServerMetadata(request: Request): Promise<Response> {
  return auth.handler(new Request(`${gatewayIssuer(request)}/.well-known/oauth-authorization-server`, { headers: request.headers }));
}

/**
 * Where a signed-out person goes from the authorization endpoint: the console's sign-in page,
 * which comes back to the same authorization request (minus the plugin's signature and a
 * `login` prompt, which signing in has just satisfied).
 */
export function signInForAuthorization(request: Request): string {
  const query = new URL(request.url).searchParams;
  for (const name of ["sig", "exp", "ba_iat", "ba_pl", "ba_param"]) query.delete(name);
  const prompt = (query.get("prompt") ?? "").split(" ").filter((p) => p && p !== "login");
  if (prompt.length) query.set("prompt", prompt.join(" "));
  else query.delete("prompt");
  return `/sign-in?next=${encodeURIComponent(`/api/auth/oauth2/authorize?${query}`)}`;
}

/** One endpoint an authorization request names, as the consent page shows it. */
export interface ConsentEndpoint {
  resource: string;
  workspace: { id: string; name: string; slug: string };
  /** null: the workspace's aggregated endpoint (every server it exposes). */
  serverName: string | null;
  /** The person's role in the workspace, or null when they are not a member. */
  role: string | null;
}

export type ConsentView =
  | { state: "signed_out" }
  | { state: "invalid"; reason: string }
  | {
      state: "ready";
      /** Self-asserted at registration: untrusted text. */
      client: { id: string; name: string | null; uri: string | null };
      /** The host the answer goes back to. */
      redirectHost: string | null;
      endpoints: ConsentEndpoint[];
      scopes: string[];
      user: { name: string; email: string };
    };

/** What the consent page shows for an authorization request (the query the OAuth provider sent the browser with). */
export async function consentView({ headers, query }: { headers: Headers; query: URLSearchParams }): Promise<ConsentView> {
  const session = await auth.api.getSession({ headers }).catch(() => null);
  if (!session) return { state: "signed_out" };
  const clientId = query.get("client_id");
  const client = clientId ? await q.findClient({ clientId }) : null;
  if (!client || client.disabled) return { state: "invalid", reason: "The application asking for access is not registered with this console." };
  const resources = query.getAll("resource");
  if (!resources.length) return { state: "invalid", reason: "The request does not name a Switchboard endpoint." };
  const endpoints: ConsentEndpoint[] = [];
  for (const value of resources) {
    const resource = parseGatewayResource(value);
    const target = resource && (await findGatewayTarget(resource));
    if (!target) return { state: "invalid", reason: `There is no endpoint at ${value}.` };
    const member = await q.findMemberRole({ workspaceId: target.workspace.id, userId: session.user.id });
    endpoints.push({ resource: value, workspace: target.workspace, serverName: target.server?.name ?? null, role: member?.role ?? null });
  }
  let redirectHost: string | null = null;
  try {
    redirectHost = new URL(query.get("redirect_uri") ?? "").host || null;
  } catch {
    redirectHost = null;
  }
  return {
    state: "ready",
    client: { id: client.clientId, name: client.name, uri: client.uri },
    redirectHost,
    endpoints,
    scopes: (query.get("scope") ?? "").split(" ").filter(Boolean),
    user: { name: session.user.name, email: session.user.email },
  };
}
