import { auth, type OAuthClientProvider, type StoredOAuthClientInformation, type StoredOAuthTokens } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, sessionCookie, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { answerConsent, navigate } from "../support/oauth-browser";

type Grant = { userId: string; clientId: string; scopes: string[]; resource: string };
type Verify = (token: string, resource: string) => Promise<Grant | null>;
type Forget = (name: "gatewayTokenCache") => void;
type RevokeGrants = (grant: { userId: string; clientId: string }) => Promise<void>;

// Never contacted: the test reads the code off the consent answer's redirect URL.
const REDIRECT = "http://127.0.0.1:9/callback";

/** An MCP host's side of the flow, kept in memory: what the official SDK's auth() registers, saves and redirects to. */
class Host implements OAuthClientProvider {
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

describe("the console as OAuth authorization server of its gateway endpoints", () => {
  let sb: ConsoleHandle;
  let verify: Verify;
  let forget: Forget;
  let revokeGrants: RevokeGrants;
  let ada: { cookie: string; userId: string };
  let bob: { cookie: string };
  let endpoint: string; // /mcp/<default>/<server>, Ada is owner, Bob a viewer
  let sibling: string; // another server of the same workspace
  let aggregated: string; // /mcp/<default>
  let foreign: string; // a server of a workspace Bob is not in

  const get = navigate;
  const consent = (consentUrl: string, cookie: string, accept: boolean) => answerConsent(sb.url, consentUrl, cookie, accept);

  /** DCR + authorization request (SDK), then the browser: authorize → consent page → Allow; then the SDK exchanges the code. */
  async function connect(resource: string, who = ada) {
    const host = new Host();
    expect(await auth(host, { serverUrl: resource })).toBe("REDIRECT");
    const toConsent = await get(host.authorizationUrl!.href, who.cookie);
    expect(toConsent.status, await toConsent.text()).toBe(302);
    const consentUrl = toConsent.headers.get("location")!;
    expect(new URL(consentUrl, sb.url).pathname, consentUrl).toBe("/oauth/consent");
    const answer = await consent(consentUrl, who.cookie, true);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const back = new URL(answer.body.url!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(await auth(host, { serverUrl: resource, authorizationCode: back.searchParams.get("code")!, iss: back.searchParams.get("iss") ?? undefined })).toBe("AUTHORIZED");
    return { host, consentUrl };
  }

  beforeAll(async () => {
    sb = await startConsole();
    const setup = await setupOwner(sb.url);
    const cookie = await sessionCookie(sb.url, setup.email, setup.password);
    const me = await apiClient(sb.url)("GET", "/api/v1/me", undefined, { cookie });
    ada = { cookie, userId: me.body.user.id };
    const slug = me.body.workspace.slug as string;
    for (const name of ["files α/β", "memory"]) expect((await setup.api("POST", "/api/v1/servers", { name, url: "http://127.0.0.1:2/mcp" })).status).toBe(201);
    endpoint = `${sb.url}/mcp/${encodeURIComponent(slug)}/${encodeURIComponent("files α/β")}`;
    sibling = `${sb.url}/mcp/${encodeURIComponent(slug)}/memory`;
    aggregated = `${sb.url}/mcp/${encodeURIComponent(slug)}`;

    const other = await setup.api("POST", "/api/v1/workspaces", { name: "Other team" });
    expect(other.status).toBe(201);
    const inOther = await apiClient(sb.url)("POST", "/api/v1/servers", { name: "memory", url: "http://127.0.0.1:2/mcp" }, { cookie, origin: sb.url, "x-workspace-id": other.body.workspace.id });
    expect(inOther.status, JSON.stringify(inOther.body)).toBe(201);
    foreign = `${sb.url}/mcp/${encodeURIComponent(other.body.workspace.slug)}/memory`;

    const invited = await setup.api("POST", "/api/v1/invitations", { email: "bob@example.com", role: "viewer" });
    const accepted = await fetch(`${sb.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: invited.body.invitation.url.split("/invite/")[1], name: "Bob", password: "password-bob-123" }),
    });
    expect(accepted.status).toBe(200);
    bob = { cookie: await sessionCookie(sb.url, "bob@example.com", "password-bob-123") };

    // The gateway's verifier, in this process, on the console's own database (what the console runs per gateway call).
    process.env.DATABASE_URL = sb.databaseUrl;
    process.env.SWITCHBOARD_SECRET = "test-secret-for-switchboard";
    ({ verifyGatewayAccessToken: verify, revokeGatewayGrants: revokeGrants } = await import("@/lib/identity/gateway-auth/server"));
    ({ forgetCache: forget } = await import("@/lib/core/runtime"));
  });

  afterAll(async () => {
    await sb?.stop();
  });

  it("is discovered from an endpoint's Protected Resource Metadata", async () => {
    const prm = await get(`${sb.url}/.well-known/oauth-protected-resource${new URL(endpoint).pathname}`);
    expect(prm.status).toBe(200);
    const metadata = (await prm.json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ resource: endpoint, authorization_servers: [`${sb.url}/api/auth`], scopes_supported: ["gateway", "offline_access"], bearer_methods_supported: ["header"] });
    const aggregatedPrm = (await (await get(`${sb.url}/.well-known/oauth-protected-resource${new URL(aggregated).pathname}`)).json()) as { resource: string };
    expect(aggregatedPrm.resource).toBe(aggregated);
    expect((await get(`${sb.url}/.well-known/oauth-protected-resource/mcp/a/b/c`)).status).toBe(404);

    const as = await get(`${sb.url}/.well-known/oauth-authorization-server/api/auth`);
    expect(as.status).toBe(200);
    const server = (await as.json()) as Record<string, unknown>;
    expect(server).toMatchObject({
      issuer: `${sb.url}/api/auth`,
      authorization_endpoint: `${sb.url}/api/auth/oauth2/authorize`,
      token_endpoint: `${sb.url}/api/auth/oauth2/token`,
      registration_endpoint: `${sb.url}/api/auth/oauth2/register`,
      revocation_endpoint: `${sb.url}/api/auth/oauth2/revoke`,
      code_challenge_methods_supported: ["S256"],
    });
    expect(server.grant_types_supported).toEqual(["authorization_code", "refresh_token"]);
  });

  it("runs DCR, PKCE, consent and the code exchange for an MCP host; the token is bound to its endpoint", async () => {
    const { host, consentUrl } = await connect(endpoint);
    expect(host.info?.client_id).toBeTruthy();
    expect(host.authorizationUrl!.searchParams.get("code_challenge_method")).toBe("S256");
    expect(host.authorizationUrl!.searchParams.get("resource")).toBe(endpoint);

    // The consent page (prerendered; it reads what to show from the API) names the client, the
    // workspace, the server and the scopes (in words in the browser: tests/e2e/gateway-consent.spec.ts).
    expect((await get(new URL(consentUrl, sb.url).href, ada.cookie)).status).toBe(200);
    expect(await consentView(consentUrl, ada.cookie)).toMatchObject({
      state: "ready",
      client: { name: "Test <Host>" },
      endpoints: [{ resource: endpoint, serverName: "files α/β", workspace: { name: "Default" }, role: "owner" }],
      scopes: expect.arrayContaining(["gateway"]),
      user: { email: expect.any(String) },
    });

    const token = host.saved!.access_token;
    expect(host.saved!.refresh_token).toBeTruthy();
    expect(await verify(token, endpoint)).toEqual({ userId: ada.userId, clientId: host.info!.client_id, scopes: ["gateway", "offline_access"], resource: endpoint });
    expect(await verify(token, sibling)).toBeNull();
    expect(await verify(token, aggregated)).toBeNull();
    expect(await verify(token, foreign)).toBeNull();
    expect(await verify(`${token}x`, endpoint)).toBeNull();

    const audit = await apiClient(sb.url)("GET", "/api/v1/audit?action=gateway.oauth_granted", undefined, { cookie: ada.cookie });
    expect(audit.status).toBe(200);
    expect(audit.body.items[0]).toMatchObject({ action: "gateway.oauth_granted", target: { type: "oauth_client", id: host.info!.client_id, name: "Test <Host>" } });
  });

  it("gives the aggregated endpoint's token to every server of its workspace, and no other", async () => {
    const { host } = await connect(aggregated);
    const token = host.saved!.access_token;
    expect((await verify(token, aggregated))?.resource).toBe(aggregated);
    expect((await verify(token, endpoint))?.resource).toBe(aggregated);
    expect((await verify(token, sibling))?.resource).toBe(aggregated);
    expect(await verify(token, foreign)).toBeNull();
    // The aggregated endpoint takes it (this workspace offers no server yet: nothing to list)…
    const client = await gatewayHost(aggregated, token, { name: "oauth-aggregate" });
    expect((await client.listTools()).tools).toEqual([]);
    await client.close();
    // …and not a token bound to one server.
    const single = (await connect(endpoint)).host.saved!.access_token;
    const refused = await fetch(aggregated, {
      method: "POST",
      headers: { authorization: `Bearer ${single}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("refreshes, and honours revocation of the access token and of the refresh token", async () => {
    const { host } = await connect(endpoint);
    const first = host.saved!;
    expect(await auth(host, { serverUrl: endpoint })).toBe("AUTHORIZED"); // the SDK refreshes with the stored refresh token
    const second = host.saved!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await verify(second.access_token, endpoint))?.userId).toBe(ada.userId);

    const revoke = (token: string, hint: string) =>
      fetch(`${sb.url}/api/auth/oauth2/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token, token_type_hint: hint, client_id: host.info!.client_id }),
      });
    expect((await revoke(first.access_token, "access_token")).status).toBe(200);
    expect(await verify(first.access_token, endpoint)).toBeNull();

    expect((await revoke(second.refresh_token!, "refresh_token")).status).toBe(200);
    // This process verified that token above and keeps the verdict 10 s; the console's instances are told
    // to forget through the instance channel, which this process is not on, so it forgets by itself.
    forget("gatewayTokenCache");
    expect(await verify(second.access_token, endpoint)).toBeNull(); // issued with that refresh token: revoked with it
    const refresh = await fetch(`${sb.url}/api/auth/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: second.refresh_token!, client_id: host.info!.client_id, resource: endpoint }),
    });
    expect(refresh.status).toBe(400);
    expect(((await refresh.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("disconnects a host for good: its tokens stop working and it must ask for consent again", async () => {
    const { host } = await connect(endpoint);
    const grant = await verify(host.saved!.access_token, endpoint);
    expect(grant).not.toBeNull();
    await revokeGrants({ userId: grant!.userId, clientId: grant!.clientId });
    expect(await verify(host.saved!.access_token, endpoint)).toBeNull();
    const refresh = await fetch(`${sb.url}/api/auth/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: host.saved!.refresh_token!, client_id: host.info!.client_id }),
    });
    expect(refresh.status).toBe(400);
    host.saved = undefined; // the host drops the dead tokens and authorizes again with the same registration
    expect(await auth(host, { serverUrl: endpoint })).toBe("REDIRECT");
    const again = await get(host.authorizationUrl!.href, ada.cookie);
    expect(new URL(again.headers.get("location")!, sb.url).pathname).toBe("/oauth/consent");
  });

  it("sends a signed-out person to the sign-in page and back to the same authorization", async () => {
    const host = new Host();
    expect(await auth(host, { serverUrl: endpoint })).toBe("REDIRECT");
    const toLogin = await get(host.authorizationUrl!.href);
    expect(toLogin.status).toBe(302);
    const login = new URL(toLogin.headers.get("location")!, sb.url);
    expect(login.pathname).toBe("/oauth/sign-in");
    const toSignIn = await get(login.href);
    expect(toSignIn.status).toBe(303);
    const signIn = new URL(toSignIn.headers.get("location")!, sb.url);
    expect(signIn.pathname).toBe("/sign-in");
    const next = signIn.searchParams.get("next")!;
    expect(next.startsWith("/api/auth/oauth2/authorize?")).toBe(true);
    // After signing in, the browser goes to `next`: the same request, now answered with the consent page.
    const resumed = await get(`${sb.url}${next}`, ada.cookie);
    expect(resumed.status).toBe(302);
    expect(new URL(resumed.headers.get("location")!, sb.url).pathname).toBe("/oauth/consent");
  });

  it("returns access_denied to the application when the person denies", async () => {
    const host = new Host();
    await auth(host, { serverUrl: sibling });
    const toConsent = await get(host.authorizationUrl!.href, ada.cookie);
    const answer = await consent(toConsent.headers.get("location")!, ada.cookie, false);
    expect(answer.status).toBe(200);
    const back = new URL(answer.body.url!);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("code")).toBeNull();
  });

  it("refuses a person who is not a member of the endpoint's workspace, and lets a viewer consent", async () => {
    const host = new Host();
    await auth(host, { serverUrl: foreign });
    const toConsent = await get(host.authorizationUrl!.href, bob.cookie);
    const consentUrl = toConsent.headers.get("location")!;
    const page = await get(new URL(consentUrl, sb.url).href, bob.cookie);
    expect(page.status).toBe(200);
    expect(await consentView(consentUrl, bob.cookie)).toMatchObject({ state: "ready", endpoints: [{ role: null, workspace: { name: "Other team" } }] });
    const answer = await consent(consentUrl, bob.cookie, true);
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe("access_denied");

    const viewerUrl = await connectPage(endpoint, bob.cookie);
    expect(await consentView(viewerUrl, bob.cookie)).toMatchObject({ state: "ready", endpoints: [{ role: "viewer" }], user: { name: "Bob" } });
    expect(await consentView(viewerUrl, "")).toEqual({ state: "signed_out" });
    const { host: viewerHost } = await connect(endpoint, bob as typeof ada);
    expect((await verify(viewerHost.saved!.access_token, endpoint))?.scopes).toContain("gateway");
  });

  it("requires PKCE and a gateway resource of this console", async () => {
    const host = new Host();
    await auth(host, { serverUrl: endpoint });
    const withoutPkce = new URL(host.authorizationUrl!);
    withoutPkce.searchParams.delete("code_challenge");
    withoutPkce.searchParams.delete("code_challenge_method");
    const refused = await get(withoutPkce.href, ada.cookie);
    expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");

    const unknown = new URL(host.authorizationUrl!);
    unknown.searchParams.set("resource", `${sb.url}/mcp/nobody/nothing`);
    expect(new URL((await get(unknown.href, ada.cookie)).headers.get("location")!).searchParams.get("error")).toBe("invalid_target");

    const elsewhere = new URL(host.authorizationUrl!);
    elsewhere.searchParams.set("resource", `http://127.0.0.2:1${new URL(endpoint).pathname}`);
    expect(new URL((await get(elsewhere.href, ada.cookie)).headers.get("location")!).searchParams.get("error")).toBe("invalid_target");

    const none = new URL(host.authorizationUrl!);
    none.searchParams.delete("resource");
    const missing = await get(none.href, ada.cookie);
    expect(missing.status).toBe(400);
  });

  /** What the consent page at `consentUrl` shows the browser holding `cookie` (the page reads it from the API). */
  async function consentView(consentUrl: string, cookie: string): Promise<unknown> {
    const res = await fetch(`${sb.url}/api/v1/oauth/consent${new URL(consentUrl, sb.url).search}`, { headers: cookie ? { cookie } : {} });
    expect(res.status).toBe(200);
    return res.json();
  }

  /** The consent page URL for a fresh authorization of `resource` by the browser holding `cookie`. */
  async function connectPage(resource: string, cookie: string): Promise<string> {
    const host = new Host();
    await auth(host, { serverUrl: resource });
    return (await get(host.authorizationUrl!.href, cookie)).headers.get("location")!;
  }
});
