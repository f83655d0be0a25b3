import "server-only";
import { computeDiscoveryUrl, DiscoveryError, normalizeDiscoveryUrls, selectTokenEndpointAuthMethod, validateDiscoveryDocument, type OIDCDiscoveryDocument } from "@better-auth/sso";
import { operatorTrustedOrigins } from "@/lib/core/access";
import { SwitchboardError } from "@/lib/core/errors";
import { findAddressRefusal, parseAllowList } from "@/lib/core/net";
import { assertUrlAllowed, envAllowedNetworks, networkMode, outboundFetch, policyFetch, type OutboundFetch } from "@/lib/core/net/server";

/** The endpoints of an OIDC provider the console itself fetches (the authorization endpoint is the browser's). */
export interface IdpEndpoints {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  tokenEndpointAuthentication: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
  jwksEndpoint: string;
  userInfoEndpoint?: string;
  discoveryEndpoint: string;
}

/**
 * The fetch for an identity provider: a workspace owner's goes through the workspace's outbound
 * policy (as its MCP servers do: names resolved, every address checked, the connection pinned to
 * it); the operator's (SWITCHBOARD_SSO_*) is the operator's choice, so its issuer's host is
 * allowed besides what the console's policy and SWITCHBOARD_ALLOWED_NETWORKS allow.
 */
export function idpFetch({ workspaceId, issuer }: { workspaceId: string | null; issuer: string }): OutboundFetch {
  if (workspaceId) return outboundFetch({ workspaceId });
  return policyFetch({ mode: networkMode(), allowed: parseAllowList([...envAllowedNetworks(), new URL(issuer).hostname]) });
}

/** An IdP URL must be https, unless the operator trusts its origin (SWITCHBOARD_TRUSTED_ORIGINS, e.g. an internal IdP). */
function assertScheme(url: string, what: string): void {
  const u = new URL(url);
  if (u.protocol !== "https:" && !operatorTrustedOrigins().includes(u.origin)) {
    throw new SwitchboardError("bad_request", `The identity provider's ${what} (${url}) must be an https:// URL (an internal IdP's origin goes in SWITCHBOARD_TRUSTED_ORIGINS)`);
  }
}

/**
 * Refuses (403, naming the rule) a workspace IdP endpoint the workspace's outbound policy refuses:
 * the issuer, and every endpoint the console fetches, wherever the metadata puts it.
 */
export async function assertIdpEndpointsAllowed({ workspaceId, endpoints }: { workspaceId: string; endpoints: (string | undefined)[] }): Promise<void> {
  for (const url of endpoints) if (url) await assertUrlAllowed({ url, workspaceId });
}

/**
 * The IdP's OpenID configuration, read through `fetch` (redirects refused) and checked by the SSO
 * plugin's own rules (required fields, the issuer it names). A refused address is a 403 with the
 * rule; an IdP that cannot be read a 502.
 */
export async function discoverIdp({ issuer, fetch, workspaceId }: { issuer: string; fetch: OutboundFetch; workspaceId: string | null }): Promise<IdpEndpoints> {
  // A workspace's IdP is held to https and its policy up front; the operator's is the operator's choice.
  if (workspaceId) {
    assertScheme(issuer, "issuer");
    await assertIdpEndpointsAllowed({ workspaceId, endpoints: [issuer] });
  }
  const discoveryEndpoint = computeDiscoveryUrl(issuer);
  let doc: OIDCDiscoveryDocument;
  try {
    const res = await fetch(discoveryEndpoint, { headers: { accept: "application/json" }, redirect: "manual", signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    doc = (await res.json()) as OIDCDiscoveryDocument;
    validateDiscoveryDocument(doc, issuer);
    doc = normalizeDiscoveryUrls(doc, issuer, () => true);
  } catch (err) {
    const refusal = findAddressRefusal(err);
    if (refusal) throw new SwitchboardError("forbidden", refusal.message, { rule: refusal.rule });
    const why = err instanceof DiscoveryError ? err.message : (err as Error).message;
    throw new SwitchboardError("upstream_error", `The identity provider's configuration (${discoveryEndpoint}) could not be read: ${why}`);
  }
  const endpoints: IdpEndpoints = {
    issuer: doc.issuer.replace(/\/+$/, ""),
    authorizationEndpoint: doc.authorization_endpoint,
    tokenEndpoint: doc.token_endpoint,
    tokenEndpointAuthentication: selectTokenEndpointAuthMethod(doc),
    jwksEndpoint: doc.jwks_uri,
    ...(doc.userinfo_endpoint ? { userInfoEndpoint: doc.userinfo_endpoint } : {}),
    discoveryEndpoint,
  };
  if (!workspaceId) return endpoints;
  for (const [what, url] of [["authorization endpoint", endpoints.authorizationEndpoint], ["token endpoint", endpoints.tokenEndpoint], ["JWKS", endpoints.jwksEndpoint], ["userinfo endpoint", endpoints.userInfoEndpoint]] as const) {
    if (url) assertScheme(url, what);
  }
  await assertIdpEndpointsAllowed({ workspaceId, endpoints: serverFetched(endpoints) });
  return endpoints;
}

/** The endpoints the console (not the browser) fetches: the plugin's token exchange, userinfo and JWKS, and the session re-check. */
export function serverFetched(config: { tokenEndpoint?: string; userInfoEndpoint?: string; jwksEndpoint?: string }): (string | undefined)[] {
  return [config.tokenEndpoint, config.userInfoEndpoint, config.jwksEndpoint];
}
