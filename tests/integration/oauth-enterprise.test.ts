import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthMcpServer, TOOLS_SCOPE, type OAuthMcpServer } from "../fixtures/oauth-mcp-server";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startXaaServers, type XaaServers } from "../support/xaa-servers";

type Api = ReturnType<typeof apiClient>;

/** Issue 31 §2: enterprise-managed authorization (SEP-990) against a real IdP token exchange and authorization server on loopback. */
describe("enterprise-managed authorization", () => {
  let sb: ConsoleHandle;
  let mcp: OAuthMcpServer;
  let xaa: XaaServers;
  let owner: Api;
  let bob: Api;
  let serverId: string;

  beforeAll(async () => {
    mcp = await startOAuthMcpServer();
    xaa = await startXaaServers({ resource: mcp.url, scope: TOOLS_SCOPE });
    mcp.setIssuer(xaa.as.issuer);
    sb = await startConsole();
    ({ api: owner } = await setupOwner(sb.url));
    const invited = await owner("POST", "/api/v1/invitations", { email: "bob@example.com", role: "member" });
    const accepted = await fetch(`${sb.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: invited.body.invitation.url.split("/invite/")[1], name: "Bob", password: "password-bob-123" }),
    });
    const cookie = accepted.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const token = await apiClient(sb.url)("POST", "/api/v1/tokens", { name: "t" }, { cookie });
    bob = apiClient(sb.url, token.body.secret);
    const created = await owner("POST", "/api/v1/servers", {
      name: "xaa",
      url: mcp.url,
      authMode: "enterprise-managed",
      idpIssuer: xaa.idp.issuer,
      idpClientId: xaa.idp.clientId,
      idpClientSecret: xaa.idp.clientSecret,
      oauthClientId: xaa.as.clientId,
      oauthClientSecret: xaa.as.clientSecret,
      oauthIssuer: xaa.as.issuer,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    serverId = created.body.server.id;
  });

  afterAll(async () => {
    await sb?.stop();
    await xaa?.close();
    await mcp?.close();
  });

  const whoami = (api: Api) => api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "whoami" });

  it("refuses the mode without its IdP and clients; the secrets never come back", async () => {
    const res = await owner("POST", "/api/v1/servers", { name: "xaa-incomplete", url: mcp.url, authMode: "enterprise-managed", idpIssuer: xaa.idp.issuer });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/idpClientId, oauthClientId, oauthClientSecret/);
    const shown = (await owner("GET", `/api/v1/servers/${serverId}`)).body.server;
    expect(shown).toMatchObject({ authMode: "enterprise-managed", idpIssuer: xaa.idp.issuer, idpClientId: xaa.idp.clientId, oauthClientId: xaa.as.clientId, oauthIssuer: xaa.as.issuer });
    expect(JSON.stringify(shown)).not.toContain(xaa.idp.clientSecret);
    expect(JSON.stringify(shown)).not.toContain(xaa.as.clientSecret);
  });

  it("without the member's ID token the call says, in plain words, to sign in with the IdP", async () => {
    const res = await whoami(bob);
    const text = JSON.stringify(res.body);
    expect(res.status).toBeLessThan(500);
    expect(text).toContain("identity provider");
    expect(text).not.toContain("sign_in_required");
    expect(xaa.idp.exchanges).toBe(0);
  });

  it("refuses an ID token from another issuer or already expired", async () => {
    const other = await owner("PUT", "/api/v1/me/identity-tokens", { issuer: "https://idp.example.com", idToken: await xaa.idp.idToken("ada") });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toMatch(/issued by http:\/\/127\.0\.0\.1:\d+, not by https:\/\/idp\.example\.com/);
    const expired = await owner("PUT", "/api/v1/me/identity-tokens", { issuer: xaa.idp.issuer, idToken: await xaa.idp.idToken("ada", "-1m") });
    expect(expired.status).toBe(400);
    expect(expired.body.error.message).toMatch(/expired/);
    expect((await owner("PUT", "/api/v1/me/identity-tokens", { issuer: xaa.idp.issuer, idToken: "not-a-jwt-at-all-xxxxxxxx" })).status).toBe(400);
  });

  it("each member's ID token becomes their own access token, with no consent screen", async () => {
    expect((await owner("PUT", "/api/v1/me/identity-tokens", { issuer: xaa.idp.issuer, idToken: await xaa.idp.idToken("ada") })).status).toBe(200);
    expect((await bob("PUT", "/api/v1/me/identity-tokens", { issuer: xaa.idp.issuer, idToken: await xaa.idp.idToken("bob") })).status).toBe(200);
    const ada = (await whoami(owner)).body.call;
    expect(ada.status, JSON.stringify(ada)).toBe("ok");
    expect(JSON.stringify(ada.result)).toContain("You are ada");
    expect(ada.credential).toMatchObject({ mode: "member", userName: "Ada Owner" });
    const bobs = (await whoami(bob)).body.call;
    expect(JSON.stringify(bobs.result)).toContain("You are bob");
    expect(xaa.idp.exchanges).toBe(2);
    expect(xaa.as.grants).toBe(2);
    const status = (await bob("GET", `/api/v1/servers/${serverId}/oauth`)).body;
    expect(status).toMatchObject({ mode: "enterprise-managed", signedIn: true, issuer: xaa.idp.issuer });
    const listed = (await bob("GET", "/api/v1/me/identity-tokens")).body.items;
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toMatch(/eyJ/);
  });

  it("a token the server stops accepting is replaced by a fresh ID-JAG exchange", async () => {
    const before = xaa.idp.exchanges;
    mcp.control.rejectNext = 1;
    const call = (await whoami(owner)).body.call;
    expect(call.status, JSON.stringify(call)).toBe("ok");
    expect(xaa.idp.exchanges).toBe(before + 1);
  });

  it("a member removed at the IdP is refused with what to do, never a 500", async () => {
    xaa.idp.removed.add("bob");
    mcp.control.rejectNext = 1;
    const res = await whoami(bob);
    expect(res.status).toBeLessThan(500);
    const text = JSON.stringify(res.body);
    expect(text).toMatch(/no longer accepts your sign-in: sign in with it again/);
    expect(text).not.toContain(xaa.idp.clientSecret);
  });
});
