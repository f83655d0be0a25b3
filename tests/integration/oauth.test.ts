import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_SCOPE, startOAuthMcpServer, TOOLS_SCOPE, type OAuthMcpServer } from "../fixtures/oauth-mcp-server";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { throughAuthorizationServer } from "../support/oauth-browser";
import { startAuthorizationServer, type AuthorizationServer } from "../support/oauth-server";

type Api = ReturnType<typeof apiClient>;

describe("OAuth to a remote MCP server, against a real authorization server", () => {
  let sb: ConsoleHandle;
  let as: AuthorizationServer;
  let mcp: OAuthMcpServer;
  let owner: { api: Api; cookie: string };
  let bob: { api: Api; cookie: string };
  let serverId: string;

  const cookieOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");

  async function signIn(email: string, password: string): Promise<string> {
    const res = await fetch(`${sb.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url },
      body: JSON.stringify({ email, password }),
    });
    expect(res.status).toBe(200);
    return cookieOf(res);
  }

  async function authorize(cookie: string, body: Record<string, unknown> = {}) {
    return apiClient(sb.url)("POST", `/api/v1/servers/${serverId}/oauth/authorize`, body, { cookie, origin: sb.url });
  }

  async function callback(url: URL, cookie: string) {
    const res = await fetch(url, { redirect: "manual", headers: { cookie } });
    return { status: res.status, location: res.headers.get("location"), text: await res.text() };
  }

  async function signInToServer(cookie: string) {
    const started = await authorize(cookie);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const back = await throughAuthorizationServer(sb.url, started.body.authorizationUrl);
    return callback(back, cookie);
  }

  beforeAll(async () => {
    mcp = await startOAuthMcpServer();
    // A 20 s access token is inside the console's 30 s refresh margin: every use refreshes first.
    as = await startAuthorizationServer({ resource: mcp.url, scopes: [TOOLS_SCOPE, ADMIN_SCOPE], accessTokenTtl: 20 });
    mcp.setIssuer(as.issuer);
    sb = await startConsole();
    const setup = await setupOwner(sb.url);
    owner = { api: setup.api, cookie: await signIn("ada@example.com", "correct horse battery") };
    const invited = await owner.api("POST", "/api/v1/invitations", { email: "bob@example.com", role: "member" });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const accepted = await fetch(`${sb.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: invited.body.invitation.url.split("/invite/")[1], name: "Bob", password: "password-bob-123" }),
    });
    expect(accepted.status).toBe(200);
    const bobCookie = cookieOf(accepted);
    const token = await apiClient(sb.url)("POST", "/api/v1/tokens", { name: "t" }, { cookie: bobCookie });
    bob = { api: apiClient(sb.url, token.body.secret), cookie: bobCookie };
    const created = await owner.api("POST", "/api/v1/servers", { name: "guarded", url: mcp.url, authMode: "oauth-per-member" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.server).toMatchObject({ authMode: "oauth-per-member", oauthClientId: null });
    serverId = created.body.server.id;
  });

  afterAll(async () => {
    await sb?.stop();
    await as?.close();
    await mcp?.close();
  });

  it("without a sign-in, listing tools answers sign_in_required with where to start", async () => {
    const res = await owner.api("GET", `/api/v1/servers/${serverId}/tools`);
    expect(res.status).toBe(502);
    expect(res.body.error.details).toEqual({ oauth: "sign_in_required", serverId, authorizeUrl: `/api/v1/servers/${serverId}/oauth/authorize` });
    const status = await owner.api("GET", `/api/v1/servers/${serverId}/oauth`);
    expect(status.body).toMatchObject({ mode: "oauth-per-member", signedIn: false });
    // The session's failure is kept with its kind: a list says "signed out" from it, not from the text.
    const listed = (await owner.api("GET", "/api/v1/servers")).body.items.find((s: { id: string }) => s.id === serverId);
    expect(listed).toMatchObject({ status: "error", session: { status: "failed", errorKind: "sign_in_required" } });
  });

  it("signs in through the authorization server (DCR, PKCE, resource) and then lists tools and calls one", async () => {
    const started = await authorize(owner.cookie);
    const authorizationUrl = new URL(started.body.authorizationUrl);
    expect(authorizationUrl.origin).toBe(as.issuer);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(mcp.url);
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(`${sb.url}/api/v1/oauth/callback`);
    expect(as.requests).toContain("POST /reg");
    const back = await throughAuthorizationServer(sb.url, started.body.authorizationUrl);
    const done = await callback(back, owner.cookie);
    expect(done.status, done.text).toBe(303);
    expect(done.location).toBe(`/servers/${serverId}?oauth=signed-in`);

    const status = await owner.api("GET", `/api/v1/servers/${serverId}/oauth`);
    expect(status.body).toMatchObject({ mode: "oauth-per-member", signedIn: true, signedInBy: "Ada Owner", issuer: as.issuer });
    expect(status.body.scope).toContain(TOOLS_SCOPE);
    expect(JSON.stringify(status.body)).not.toMatch(/eyJ/);

    const tools = await owner.api("GET", `/api/v1/servers/${serverId}/tools`);
    expect(tools.status, JSON.stringify(tools.body)).toBe(200);
    expect(tools.body.items.map((t: { name: string }) => t.name)).toContain("whoami");
    const call = await owner.api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "whoami", arguments: {} });
    expect(call.body.call.status, JSON.stringify(call.body)).toBe("ok");
    expect(call.body.call.result.content[0].text).toBe("You are alice");

    // Registered once per (workspace, issuer) and stored encrypted; tokens never in clear text.
    expect(await sb.db.all("SELECT method FROM oauth_client")).toEqual([{ method: "dcr" }]);
    const dump = JSON.stringify([await sb.db.all("SELECT * FROM oauth_credential"), await sb.db.all("SELECT * FROM oauth_client")]);
    // No JWT (three dot-separated base64url parts starting with '{"'), no secret field: sealed
    // values are random base64url, where a bare "eyJ" turns up by chance.
    expect(dump).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\.|client_secret/);
    for (const token of mcp.accepted) expect(dump).not.toContain(token);
  });

  it("refreshes a token about to expire before using it (the MCP server sees a new token)", async () => {
    const before = mcp.accepted.length;
    const tokenCalls = as.requests.filter((r) => r === "POST /token").length;
    const call = await owner.api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "whoami", arguments: {} });
    expect(call.body.call.status).toBe("ok");
    expect(as.requests.filter((r) => r === "POST /token").length).toBeGreaterThan(tokenCalls);
    expect(mcp.accepted.length).toBeGreaterThan(before);
  });

  it("masks the stored access token wherever it shows up in a recorded call", async () => {
    const current = mcp.accepted.at(-1)!;
    const call = await owner.api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "whoami", arguments: { note: `pasted ${current} here` }, skipValidation: true });
    expect(call.body.call.status, JSON.stringify(call.body.call.error)).toBe("ok");
    const recorded = (await owner.api("GET", `/api/v1/calls/${call.body.call.id}`)).body.call;
    expect(recorded.params.arguments.note).toBe("pasted [redacted] here");
    expect(JSON.stringify(recorded)).not.toContain(current);
  });

  it("a 401 on a live session refreshes once and retries, invisibly to the caller", async () => {
    await owner.api("GET", `/api/v1/servers/${serverId}/tools`);
    const tokenCalls = as.requests.filter((r) => r === "POST /token").length;
    mcp.control.rejectNext = 1;
    const call = await owner.api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "whoami", arguments: {} });
    expect(call.body.call.status, JSON.stringify(call.body.call.error)).toBe("ok");
    expect(mcp.control.rejectNext).toBe(0);
    expect(as.requests.filter((r) => r === "POST /token").length).toBeGreaterThan(tokenCalls);
  });

  it("binds the tokens to a DPoP key the authorization server offers, stored with them: they keep working after a restart", async () => {
    const before = await owner.api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "whoami", arguments: {} });
    expect(before.body.call.status).toBe("ok");
    expect(mcp.dpopUsed.length).toBeGreaterThan(0);
    const bound = mcp.dpopUsed.length;
    await sb.stop();
    await sb.restart();
    const after = await owner.api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "whoami", arguments: {} });
    expect(after.body.call.status, JSON.stringify(after.body.call.error)).toBe("ok");
    expect(after.body.call.result.content[0].text).toBe("You are alice");
    // The 20 s token was refreshed with a proof of the same key, and the new token presented with DPoP.
    expect(mcp.dpopUsed.length).toBeGreaterThan(bound);
  });

  it("per member: another member must sign in for themselves while the first one works", async () => {
    const res = await bob.api("GET", `/api/v1/servers/${serverId}/tools`);
    expect(res.status).toBe(502);
    expect(res.body.error.details.oauth).toBe("sign_in_required");
    const status = await bob.api("GET", `/api/v1/servers/${serverId}/oauth`);
    expect(status.body.signedIn).toBe(false);
    const mine = await owner.api("GET", `/api/v1/servers/${serverId}/tools`);
    expect(mine.status).toBe(200);

    as.account = "bob";
    const done = await signInToServer(bob.cookie);
    expect(done.status, done.text).toBe(303);
    const call = await bob.api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "whoami", arguments: {} });
    expect(call.body.call.result.content[0].text).toBe("You are bob");
    const ownerCall = await owner.api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "whoami", arguments: {} });
    expect(ownerCall.body.call.result.content[0].text).toBe("You are alice");
    as.account = "alice";

    // History shows whose identity each call used; a teammate re-running a call uses their own.
    const recorded = await owner.api("GET", `/api/v1/calls/${ownerCall.body.call.id}`);
    expect(recorded.body.call.credential).toMatchObject({ mode: "member", userName: "Ada Owner" });
    expect((await bob.api("GET", `/api/v1/calls/${call.body.call.id}`)).body.call.credential).toMatchObject({ mode: "member", userName: "Bob" });
    const rerun = await bob.api("POST", `/api/v1/calls/${ownerCall.body.call.id}/rerun`);
    expect(rerun.body.call.result.content[0].text).toBe("You are bob");
    expect(rerun.body.call.credential).toMatchObject({ mode: "member", userName: "Bob" });
  });

  it("a 403 insufficient_scope asks for step-up with the larger scope; after consenting the call works", async () => {
    const denied = await owner.api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "admin-only", arguments: {} });
    expect(denied.body.call.status).toBe("error");
    expect(denied.body.call.error.oauth).toEqual({ oauth: "step_up_required", serverId, authorizeUrl: `/api/v1/servers/${serverId}/oauth/authorize`, scope: `${TOOLS_SCOPE} ${ADMIN_SCOPE}` });
    const started = await authorize(owner.cookie, { scope: denied.body.call.error.oauth.scope });
    expect(new URL(started.body.authorizationUrl).searchParams.get("scope")).toContain(ADMIN_SCOPE);
    const done = await callback(await throughAuthorizationServer(sb.url, started.body.authorizationUrl), owner.cookie);
    expect(done.status, done.text).toBe(303);
    const allowed = await owner.api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "admin-only", arguments: {} });
    expect(allowed.body.call.status, JSON.stringify(allowed.body.call.error)).toBe("ok");
    expect(allowed.body.call.result.content[0].text).toBe("admin things");
  });

  it("serves its Client ID Metadata Document at a stable URL of its own origin", async () => {
    const res = await fetch(`${sb.url}/oauth/client-metadata.json`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      client_id: `${sb.url}/oauth/client-metadata.json`,
      redirect_uris: [`${sb.url}/api/v1/oauth/callback`],
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "none",
    });
  });

  it("refuses a state started by another user, and a state that expired", async () => {
    const started = await authorize(owner.cookie);
    const back = await throughAuthorizationServer(sb.url, started.body.authorizationUrl);
    const foreign = await callback(back, bob.cookie);
    expect(foreign.status).toBe(400);
    expect(foreign.text).toContain("not started by you");

    await sb.db.run("UPDATE oauth_flow SET expires_at = ? WHERE used_at IS NULL", new Date(Date.now() - 1000));
    const expired = await callback(back, owner.cookie);
    expect(expired.status).toBe(400);
    expect(expired.text).toContain("Sign-in expired");
  });

  it("shows an error from the authorization server in plain words, not JSON", async () => {
    const started = await authorize(owner.cookie);
    const state = new URL(started.body.authorizationUrl).searchParams.get("state")!;
    const url = new URL(`${sb.url}/api/v1/oauth/callback`);
    url.searchParams.set("state", state);
    url.searchParams.set("error", "access_denied");
    url.searchParams.set("error_description", "The <b>user</b> said no");
    const res = await callback(url, owner.cookie);
    expect(res.status).toBe(400);
    expect(res.text).toContain("Access was denied at the authorization server.");
    expect(res.text).toContain("The &lt;b&gt;user&lt;/b&gt; said no");
  });

  it("sign out revokes at the authorization server and deletes the tokens", async () => {
    const res = await owner.api("DELETE", `/api/v1/servers/${serverId}/oauth`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: true, revocationError: null });
    expect(as.requests).toContain("POST /token/revocation");
    const status = await owner.api("GET", `/api/v1/servers/${serverId}/oauth`);
    expect(status.body.signedIn).toBe(false);
    const tools = await owner.api("GET", `/api/v1/servers/${serverId}/tools`);
    expect(tools.body.error.details.oauth).toBe("sign_in_required");
    // Bob's own sign-in is untouched.
    const bobs = await bob.api("GET", `/api/v1/servers/${serverId}/tools`);
    expect(bobs.status).toBe(200);
  });
  it("shared mode with a pre-registered client: one member signs in for the workspace, everyone's calls use it", async () => {
    const registered = await fetch(`${as.issuer}/reg`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [`${sb.url}/api/v1/oauth/callback`], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], application_type: "native" }),
    });
    expect(registered.status).toBe(201);
    const client = (await registered.json()) as { client_id: string; client_secret: string };
    const created = await owner.api("POST", "/api/v1/servers", {
      name: "shared",
      url: mcp.url,
      authMode: "oauth-shared",
      oauthClientId: client.client_id,
      oauthClientSecret: client.client_secret,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain(client.client_secret);
    const sharedId = created.body.server.id as string;
    const before = as.requests.filter((r) => r === "POST /reg").length;

    const started = await apiClient(sb.url)("POST", `/api/v1/servers/${sharedId}/oauth/authorize`, {}, { cookie: owner.cookie, origin: sb.url });
    expect(new URL(started.body.authorizationUrl).searchParams.get("client_id")).toBe(client.client_id);
    const done = await callback(await throughAuthorizationServer(sb.url, started.body.authorizationUrl), owner.cookie);
    expect(done.status, done.text).toBe(303);
    expect(as.requests.filter((r) => r === "POST /reg").length).toBe(before);

    const status = await bob.api("GET", `/api/v1/servers/${sharedId}/oauth`);
    expect(status.body).toMatchObject({ mode: "oauth-shared", signedIn: true, signedInBy: "Ada Owner", clientId: client.client_id });
    const call = await bob.api("POST", `/api/v1/servers/${sharedId}/tools/call`, { name: "whoami", arguments: {} });
    expect(call.body.call.status, JSON.stringify(call.body.call.error)).toBe("ok");
    expect(call.body.call.result.content[0].text).toBe("You are alice");
    expect(call.body.call.userName).toBe("Bob");
    expect((await bob.api("GET", `/api/v1/calls/${call.body.call.id}`)).body.call.credential).toMatchObject({ mode: "shared", userName: "Ada Owner" });
    const row = (await sb.db.get<{ oauth_client_secret: string }>("SELECT oauth_client_secret FROM server WHERE id = ?", sharedId))!;
    expect(row.oauth_client_secret).toMatch(/^v1\./);
    expect(JSON.stringify(await sb.db.all("SELECT * FROM server"))).not.toContain(client.client_secret);
  });
});
