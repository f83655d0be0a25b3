import "server-only";
import { cimd } from "@better-auth/cimd";
import { getOAuthProviderApi, oauthProvider } from "@better-auth/oauth-provider";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthEndpoint, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { z } from "zod";
import { auditAs } from "@/lib/core/audit/server";
import { anonymousFetch } from "@/lib/core/net/server";
import { forgetCache } from "@/lib/core/runtime";
import { GATEWAY_SCOPES, parseGatewayResource } from "./gateway-resource";
import { consoleOrigin } from "./index";
import * as q from "./queries";

/** Where the plugin sends a signed-out person (a route that hands over to /sign-in) and the consent page. */
export const GATEWAY_LOGIN_PAGE = "/oauth/sign-in";
export const GATEWAY_CONSENT_PAGE = "/oauth/consent";

/**
 * The console as OAuth 2.1 authorization server for its gateway endpoints (@better-auth/oauth-provider):
 * open dynamic client registration for public clients, PKCE S256 always, RFC 8707 resources,
 * refresh tokens with `offline_access`, RFC 7009 revocation. Access tokens are opaque and stored
 * hashed (not JWTs): the plugin cannot revoke a JWT access token, and an opaque one is looked up
 * on every verification, so revoking it (or its refresh token) takes effect at once.
 */
const provider = oauthProvider({
  loginPage: GATEWAY_LOGIN_PAGE,
  consentPage: GATEWAY_CONSENT_PAGE,
  scopes: [...GATEWAY_SCOPES],
  grantTypes: ["authorization_code", "refresh_token"],
  disableJwtPlugin: true,
  allowDynamicClientRegistration: true,
  allowUnauthenticatedClientRegistration: true,
  // Endpoints are per workspace and server, created as they are asked for (see below), so no client is pre-linked to them.
  enforcePerClientResources: false,
  // Clients are managed by registration only; the plugin's session-authenticated client and resource admin endpoints answer 403.
  clientPrivileges: () => false,
  resourcePrivileges: () => false,
  schema: {
    oauthClient: { modelName: "gatewayOAuthClient" },
    oauthResource: { modelName: "gatewayOAuthResource" },
    oauthClientResource: { modelName: "gatewayOAuthClientResource" },
    oauthRefreshToken: { modelName: "gatewayOAuthRefreshToken" },
    oauthAccessToken: { modelName: "gatewayOAuthAccessToken" },
    oauthConsent: { modelName: "gatewayOAuthConsent" },
    oauthClientAssertion: { modelName: "gatewayOAuthClientAssertion" },
  },
});

type Adapter = { findOne: (q: { model: string; where: { field: string; value: string }[] }) => Promise<unknown>; create: (q: { model: string; data: Record<string, unknown> }) => Promise<unknown> };

/**
 * Registers a gateway endpoint as a resource tokens may name (the plugin's `oauthResource` row),
 * through better-auth's adapter, which stores its list columns as each database needs.
 */
async function ensureResource(adapter: Adapter, identifier: string, name: string) {
  const where = [{ field: "identifier", value: identifier }];
  if (await adapter.findOne({ model: "oauthResource", where })) return;
  const now = new Date();
  try {
    await adapter.create({ model: "oauthResource", data: { identifier, name, allowedScopes: [...GATEWAY_SCOPES], disabled: false, createdAt: now, updatedAt: now } });
  } catch (err) {
    if (!(await adapter.findOne({ model: "oauthResource", where }))) throw err; // else another request created it first
  }
}

const requestedResources = (value: unknown): string[] =>
  typeof value === "string" ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/** The `resource` values of the authorization request a consent answers (its signed `oauth_query`). */
function consentResources(body: unknown): { clientId: string | null; resources: string[]; scopes: string[] } {
  const query = new URLSearchParams(typeof (body as { oauth_query?: unknown })?.oauth_query === "string" ? (body as { oauth_query: string }).oauth_query : "");
  return { clientId: query.get("client_id"), resources: query.getAll("resource"), scopes: (query.get("scope") ?? "").split(" ").filter(Boolean) };
}

/**
 * What the console adds around the plugin: gateway endpoints become resources when first asked
 * for (only endpoints of this console that exist), a consent needs membership of the endpoint's
 * workspace, a revocation empties the verification cache, a grant is audited, and the gateway
 * validates tokens through the plugin's own validator (server-only endpoint).
 */
const gatewayBridge = {
  id: "switchboard-gateway-oauth",
  endpoints: {
    validateGatewayAccessToken: createAuthEndpoint(
      "/gateway/validate-access-token",
      { method: "POST", body: z.object({ token: z.string().min(1).max(4096) }), metadata: { SERVER_ONLY: true } },
      async (ctx) => {
        try {
          return ctx.json(await getOAuthProviderApi(ctx, provider.options).validateAccessToken(ctx.body.token));
        } catch (err) {
          // Unknown or malformed tokens are refused with an error (better-call's, not better-auth's class).
          if (isAPIError(err)) return ctx.json({ active: false });
          throw err;
        }
      },
    ),
  },
  hooks: {
    before: [
      {
        matcher: (ctx) => ctx.path === "/oauth2/authorize",
        handler: createAuthMiddleware(async (ctx) => {
          const resources = requestedResources(ctx.query?.resource ?? (ctx.body as { resource?: unknown } | undefined)?.resource);
          if (!resources.length) {
            throw new APIError("BAD_REQUEST", { error: "invalid_target", error_description: "Name the Switchboard endpoint the token is for: resource=<endpoint URL> (RFC 8707)" });
          }
          const origin = ctx.request ? consoleOrigin(ctx.request) : null;
          for (const value of resources) {
            const resource = parseGatewayResource(value);
            if (!resource || resource.origin !== origin) continue; // the plugin answers invalid_target
            const target = await q.findGatewayTarget(resource);
            if (target) await ensureResource(ctx.context.adapter, resource.url, `${target.workspace.slug}${target.server ? `/${target.server.name}` : ""}`);
          }
        }),
      },
      {
        matcher: (ctx) => ctx.path === "/oauth2/consent" && (ctx.body as { accept?: unknown } | undefined)?.accept === true,
        handler: createAuthMiddleware(async (ctx) => {
          const session = await getSessionFromCtx(ctx);
          if (!session) return; // the endpoint itself answers 401
          for (const value of consentResources(ctx.body).resources) {
            const resource = parseGatewayResource(value);
            const target = resource && (await q.findGatewayTarget(resource));
            const member = target && (await q.findMembership({ userId: session.user.id, workspaceId: target.workspace.id }));
            if (!member || member.workspaceId !== target.workspace.id) {
              throw new APIError("FORBIDDEN", { error: "access_denied", error_description: "Only members of the endpoint's workspace can allow access to it" });
            }
          }
        }),
      },
    ],
    after: [
      {
        matcher: (ctx) => ctx.path === "/oauth2/revoke",
        handler: createAuthMiddleware(async () => forgetCache("gatewayTokenCache")),
      },
      {
        matcher: (ctx) => ctx.path === "/oauth2/consent" && (ctx.body as { accept?: unknown } | undefined)?.accept === true,
        handler: createAuthMiddleware(async (ctx) => {
          const session = ctx.context.session ?? (await getSessionFromCtx(ctx));
          if (!session || ctx.context.returned instanceof Error) return;
          const { clientId, resources, scopes } = consentResources(ctx.body);
          const registered = clientId ? await q.findGatewayClientName({ clientId }) : null;
          // The address the request front set from the socket (as lib/identity/auth/server.ts reads it).
          const client = { ip: ctx.headers?.get("x-switchboard-client-ip") || null, userAgent: ctx.headers?.get("user-agent")?.slice(0, 500) ?? null };
          for (const value of resources) {
            const resource = parseGatewayResource(value);
            const target = resource && (await q.findGatewayTarget(resource));
            if (!target) continue;
            await auditAs(
              { workspaceId: target.workspace.id, type: "user", id: session.user.id, name: session.user.name, client },
              { action: "gateway.oauth_granted", target: { type: "oauth_client", id: clientId, name: registered?.name ?? null }, details: { resource: value, scopes } },
            );
          }
        }),
      },
    ],
  },
} satisfies BetterAuthPlugin;

/**
 * Client ID Metadata Documents (MCP 2026-07-28's way for a host to register): a `client_id` that is
 * an https URL names the host's metadata, which the plugin fetches (no redirects, size and rate
 * bounded, cached) through the console's address policy for URLs nobody in a workspace supplied.
 */
const fetchDocument = anonymousFetch();
const metadataDocuments = cimd({
  fetchClientMetadataResource: (input, init) => fetchDocument(input instanceof Request ? input.url : input, init),
  metadataProfile: "mcp-2026-07-28",
});

/** The plugins that make the console the gateway's authorization server. */
export const gatewayOAuthPlugins = [provider, metadataDocuments, gatewayBridge] as const;
