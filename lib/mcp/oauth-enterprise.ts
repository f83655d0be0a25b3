import { CrossAppAccessProvider, discoverAndRequestJwtAuthGrant, requestJwtAuthorizationGrant, type CrossAppAccessProviderOptions, type OAuthClientProvider } from "@modelcontextprotocol/client";
import { SwitchboardError } from "@/lib/errors";

/**
 * Enterprise-managed authorization (SEP-990, cross-app access): the member's ID token from the
 * enterprise IdP is exchanged there for an ID-JAG (RFC 8693), and that at the server's
 * authorization server for an access token (RFC 7523 JWT bearer), by the SDK's own functions.
 */
export interface EnterpriseCredentials {
  /** The IdP's issuer; its token endpoint is discovered from it unless given. */
  idpIssuer: string;
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
        fetchFn: ctx.fetchFn,
      };
      try {
        const grant = credentials.idpTokenEndpoint
          ? await requestJwtAuthorizationGrant({ ...request, tokenEndpoint: credentials.idpTokenEndpoint })
          : await discoverAndRequestJwtAuthGrant({ ...request, idpUrl: credentials.idpIssuer });
        return grant.jwtAuthGrant;
      } catch (err) {
        throw exchangeRefused(credentials.idpIssuer, err);
      }
    },
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
