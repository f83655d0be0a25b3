import { buildDiscoveryUrls, CrossAppAccessProvider, requestJwtAuthorizationGrant, type CrossAppAccessProviderOptions, type FetchLike, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { SwitchboardError } from "@/lib/core/errors";
import { findAddressRefusal } from "@/lib/core/net";

/**
 * Enterprise-managed authorization (SEP-990, cross-app access): the member's ID token from the
 * enterprise IdP is exchanged there for an ID-JAG (RFC 8693), and that at the server's
 * authorization server for an access token (RFC 7523 JWT bearer), by the SDK's own functions.
 */
export interface EnterpriseCredentials {
  /** The IdP's issuer; the ID token goes only to the token endpoint its metadata names. */
  idpIssuer: string;
  /** An admin's setting: used only when it is the one the issuer's metadata names (idpTokenEndpoint()). */
  idpTokenEndpoint?: string;
  idpClientId: string;
  idpClientSecret?: string;
  /** The client registered with the server's authorization server. */
  clientId: string;
  clientSecret: string;
  /** When set, the client secret goes to this authorization server only. */
  expectedIssuer?: string;
  /** The member's current ID token, read at every exchange (a new SSO sign-in replaces it); throws in plain words when there is none. */
  idToken: () => Promise<string>;
  /** The workspace's outbound fetch (lib/core/net): the IdP's metadata and token exchange, and the authorization server. */
  fetch: FetchLike;
}

const sameUrl = (a: string, b: string) => URL.canParse(a) && URL.canParse(b) && new URL(a).href.replace(/\/+$/, "") === new URL(b).href.replace(/\/+$/, "");

/**
 * The IdP's own token endpoint, from the issuer's metadata read through `fetch`: the only place a
 * member's ID token is sent. A configured endpoint that is not it is refused (422), so that an
 * admin cannot point members' ID tokens at a collector of their choosing.
 */
export async function idpTokenEndpoint({ issuer, configured, fetch }: { issuer: string; configured?: string | null; fetch: FetchLike }): Promise<string> {
  let own: string | undefined;
  try {
    own = await ownTokenEndpoint({ issuer, fetch });
  } catch (err) {
    const refusal = findAddressRefusal(err);
    if (refusal) throw new SwitchboardError("forbidden", refusal.message, { rule: refusal.rule });
    throw new SwitchboardError("upstream_error", `The identity provider's metadata (${issuer}) could not be read: ${(err as Error).message}`);
  }
  if (!own) throw new SwitchboardError("upstream_error", `The identity provider ${issuer} publishes no metadata naming its token endpoint`);
  if (configured && !sameUrl(configured, own)) {
    throw new SwitchboardError("unprocessable", `The IdP token endpoint ${configured} is not ${issuer}'s own (its metadata names ${own}): members' ID tokens are sent only to their identity provider's token endpoint`, { field: "idpTokenEndpoint" });
  }
  return own;
}

/**
 * `token_endpoint` of the first metadata document the issuer publishes (RFC 8414, then OpenID
 * Connect, at the SDK's discovery URLs) that names this issuer. Read leniently: the SDK's strict
 * schemas refuse an IdP's OpenID document without the fields sign-in needs (response types, subject
 * types), which a token exchange does not.
 */
async function ownTokenEndpoint({ issuer, fetch }: { issuer: string; fetch: FetchLike }): Promise<string | undefined> {
  for (const { url } of buildDiscoveryUrls(issuer)) {
    const res = await fetch(url, { headers: { accept: "application/json" } });
    if (!res.ok) continue;
    const doc = (await res.json().catch(() => null)) as { issuer?: unknown; token_endpoint?: unknown } | null;
    if (typeof doc?.token_endpoint === "string" && typeof doc.issuer === "string" && sameUrl(doc.issuer, issuer)) return doc.token_endpoint;
  }
  return undefined;
}

/**
 * The SDK's CrossAppAccessProvider. Its tokens live with the connection; when one expires (the
 * server answers 401) the SDK asks again, and a fresh ID-JAG is made from the member's ID token.
 */
export function enterpriseProvider(credentials: EnterpriseCredentials): OAuthClientProvider {
  const options: CrossAppAccessProviderOptions = {
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    clientName: "Switchboard",
    assertion: async (ctx) => {
      const idToken = await credentials.idToken();
      const request = {
        audience: ctx.authorizationServerUrl,
        resource: ctx.resourceUrl,
        idToken,
        clientId: credentials.idpClientId,
        ...(credentials.idpClientSecret ? { clientSecret: credentials.idpClientSecret } : {}),
        ...(ctx.scope ? { scope: ctx.scope } : {}),
        fetchFn: credentials.fetch,
      };
      const tokenEndpoint = await idpTokenEndpoint({ issuer: credentials.idpIssuer, configured: credentials.idpTokenEndpoint, fetch: credentials.fetch });
      try {
        return (await requestJwtAuthorizationGrant({ ...request, tokenEndpoint })).jwtAuthGrant;
      } catch (err) {
        throw exchangeRefused(credentials.idpIssuer, err);
      }
    },
    fetchFn: credentials.fetch,
  };
  return credentials.expectedIssuer ? new CrossAppAccessProvider({ ...options, expectedIssuer: credentials.expectedIssuer }) : new CrossAppAccessProvider(options);
}

/** The IdP's refusal of the token exchange, in plain words with what to do. */
function exchangeRefused(issuer: string, err: unknown): SwitchboardError {
  const said = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, " ").slice(0, 300);
  const expired = /invalid_grant|expired|invalid id token/i.test(said);
  const message = expired
    ? `Your identity provider (${issuer}) no longer accepts your sign-in: sign in with it again, then retry (${said})`
    : /invalid_client|unauthorized_client/i.test(said)
      ? `Your identity provider (${issuer}) refused the console's client: an admin should check the IdP client id and secret in this server's settings (${said})`
      : `Your identity provider (${issuer}) did not grant access to this server (${said})`;
  return new SwitchboardError("upstream_error", message, { kind: "unauthorized" });
}
