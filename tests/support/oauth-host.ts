import type { OAuthClientProvider, StoredOAuthClientInformation, StoredOAuthTokens } from "@modelcontextprotocol/client";

/** Where hosts say they come back to; tests answer it in the browser (page.route): nothing listens there. */
export const HOST_REDIRECT = "http://127.0.0.1:9/callback";

/** An MCP host's side of OAuth, in memory: the official SDK's auth() does discovery, registration, PKCE and the exchange. */
export class TestHost implements OAuthClientProvider {
  info?: StoredOAuthClientInformation;
  saved?: StoredOAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  discovery?: Parameters<NonNullable<OAuthClientProvider["saveDiscoveryState"]>>[0];
  redirectUrl = HOST_REDIRECT;
  clientMetadata;

  constructor(clientName = "Test Host") {
    this.clientMetadata = { client_name: clientName, redirect_uris: [HOST_REDIRECT], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  }

  clientInformation = () => this.info;
  saveClientInformation = (info: StoredOAuthClientInformation) => void (this.info = info);
  tokens = () => this.saved;
  saveTokens = (tokens: StoredOAuthTokens) => void (this.saved = tokens);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier);
  codeVerifier = () => this.verifier;
  saveDiscoveryState = (state: NonNullable<TestHost["discovery"]>) => void (this.discovery = state);
  discoveryState = () => this.discovery;
}
