/** Shared by the gateway OAuth tests: an MCP host's side of the flow, and a console with two people and four endpoints. */
import { auth, type OAuthClientProvider, type StoredOAuthClientInformation, type StoredOAuthTokens } from "@modelcontextprotocol/client";
import { expect } from "vitest";
import { apiClient, sessionCookie, setupOwner, type ConsoleHandle } from "../support/console";
import { answerConsent, navigate } from "../support/oauth-browser";

type Grant = { userId: string; clientId: string; scopes: string[]; resource: string };
type Verify = (token: string, resource: string) => Promise<Grant | null>;
type Forget = (name: "gatewayTokenCache") => void;
type RevokeGrants = (grant: { userId: string; clientId: string }) => Promise<void>;

// Never contacted: the test reads the code off the consent answer's redirect URL.
const REDIRECT = "http://127.0.0.1:9/callback";

/** An MCP host's side of the flow, kept in memory: what the official SDK's auth() registers, saves and redirects to. */
export class Host implements OAuthClientProvider {
  info?: StoredOAuthClientInformation;
  saved?: StoredOAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return { client_name: "Test <Host>", client_uri: "https://host.example/about", redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

export interface GatewayOAuthWorld {
  verify: Verify;
  forget: Forget;
  revokeGrants: RevokeGrants;
  ada: { cookie: string; userId: string };
  bob: { cookie: string };
  endpoint: string; // /mcp/<default>/<server>, Ada is owner, Bob a viewer
  sibling: string; // another server of the same workspace
  aggregated: string; // /mcp/<default>
  foreign: string; // a server of a workspace Bob is not in
}

/** Ada (owner) with two servers, a second workspace with one, Bob as a viewer; and the gateway's verifier in this process. */
export async function setUpGatewayOAuth(sb: ConsoleHandle): Promise<GatewayOAuthWorld> {
  const setup = await setupOwner(sb.url);
  const cookie = await sessionCookie(sb.url, setup.email, setup.password);
  const me = await apiClient(sb.url)("GET", "/api/v1/me", undefined, { cookie });
  const ada = { cookie, userId: me.body.user.id as string };
  const slug = me.body.workspace.slug as string;
  for (const name of ["files α/β", "memory"]) expect((await setup.api("POST", "/api/v1/servers", { name, url: "http://127.0.0.1:2/mcp" })).status).toBe(201);
  const endpoint = `${sb.url}/mcp/${encodeURIComponent(slug)}/${encodeURIComponent("files α/β")}`;
  const sibling = `${sb.url}/mcp/${encodeURIComponent(slug)}/memory`;
  const aggregated = `${sb.url}/mcp/${encodeURIComponent(slug)}`;

  const other = await setup.api("POST", "/api/v1/workspaces", { name: "Other team" });
  expect(other.status).toBe(201);
  const inOther = await apiClient(sb.url)("POST", "/api/v1/servers", { name: "memory", url: "http://127.0.0.1:2/mcp" }, { cookie, origin: sb.url, "x-workspace-id": other.body.workspace.id });
  expect(inOther.status, JSON.stringify(inOther.body)).toBe(201);
  const foreign = `${sb.url}/mcp/${encodeURIComponent(other.body.workspace.slug)}/memory`;

  const invited = await setup.api("POST", "/api/v1/invitations", { email: "bob@example.com", role: "viewer" });
  const accepted = await fetch(`${sb.url}/api/v1/invitations/accept`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: invited.body.invitation.url.split("/invite/")[1], name: "Bob", password: "password-bob-123" }),
  });
  expect(accepted.status).toBe(200);
  const bob = { cookie: await sessionCookie(sb.url, "bob@example.com", "password-bob-123") };

  // The gateway's verifier, in this process, on the console's own database (what the console runs per gateway call).
  process.env.DATABASE_URL = sb.databaseUrl;
  process.env.SWITCHBOARD_SECRET = "test-secret-for-switchboard";
  const { verifyGatewayAccessToken: verify, revokeGatewayGrants: revokeGrants } = await import("@/lib/identity/gateway-auth/server");
  const { forgetCache: forget } = await import("@/lib/core/runtime");
  return { verify, forget, revokeGrants, ada, bob, endpoint, sibling, aggregated, foreign };
}

/** DCR + authorization request (SDK), then the browser: authorize → consent page → Allow; then the SDK exchanges the code. */
export async function connectHost(base: string, resource: string, cookie: string) {
  const host = new Host();
  expect(await auth(host, { serverUrl: resource })).toBe("REDIRECT");
  const toConsent = await navigate(host.authorizationUrl!.href, cookie);
  expect(toConsent.status, await toConsent.text()).toBe(302);
  const consentUrl = toConsent.headers.get("location")!;
  expect(new URL(consentUrl, base).pathname, consentUrl).toBe("/oauth/consent");
  const answer = await answerConsent(base, consentUrl, cookie, true);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const back = new URL(answer.body.url!);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  expect(await auth(host, { serverUrl: resource, authorizationCode: back.searchParams.get("code")!, iss: back.searchParams.get("iss") ?? undefined })).toBe("AUTHORIZED");
  return { host, consentUrl };
}

/** What the consent page at `consentUrl` shows the browser holding `cookie` (the page reads it from the API). */
export async function consentView(base: string, consentUrl: string, cookie: string): Promise<unknown> {
  const res = await fetch(`${base}/api/v1/oauth/consent${new URL(consentUrl, base).search}`, { headers: cookie ? { cookie } : {} });
  expect(res.status).toBe(200);
  return res.json();
}
