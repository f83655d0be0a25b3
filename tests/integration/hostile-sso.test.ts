import dns from "node:dns/promises";
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthMcpServer, TOOLS_SCOPE, type OAuthMcpServer } from "../fixtures/oauth-mcp-server";
import { apiClient, sessionCookie, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startDnsServer, type DnsServer } from "../support/dns-server";
import { cookieOf, throughAuthorizationServer } from "../support/oauth-browser";
import { startSsoIdp, type SsoIdp } from "../support/sso-idp";
import { startXaaServers, type XaaServers } from "../support/xaa-servers";

type Api = ReturnType<typeof apiClient>;

/** Starts an SSO sign-in at the console and follows it through the IdP; answers the console's callback response. */
async function signInThrough(base: string, providerId: string): Promise<Response> {
  const started = await fetch(`${base}/api/auth/sign-in/sso`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ providerId, callbackURL: "/servers", errorCallbackURL: "/sign-in" }),
  });
  const { url } = (await started.json()) as { url: string };
  expect(started.status, url).toBe(200);
  const back = await throughAuthorizationServer(base, url);
  return fetch(back, { redirect: "manual", headers: { cookie: cookieOf(started) } });
}

/** Issue 38: a workspace owner's IdP signs in only people of its verified domain. */
describe("a workspace owner's identity provider asserting someone else", () => {
  let sb: ConsoleHandle;
  let idp: SsoIdp;
  let dnsServer: DnsServer;
  let owner: Awaited<ReturnType<typeof setupOwner>>;

  beforeAll(async () => {
    idp = await startSsoIdp({ providerIds: ["acme-test"] });
    idp.people.set("erin", { email: "erin@acme.test", name: "Erin" });
    idp.people.set("mallory", { email: "victim@other.test", name: "Victim" });
    idp.people.set("sub", { email: "sam@eng.acme.test", name: "Sam" });
    dnsServer = await startDnsServer();
    sb = await startConsole({ env: { SWITCHBOARD_DNS_SERVERS: dnsServer.address, SWITCHBOARD_TRUSTED_ORIGINS: idp.issuer, SWITCHBOARD_SSO_RECHECK_SECONDS: "1" } });
    owner = await setupOwner(sb.url);
    const created = await owner.api("POST", "/api/v1/workspace/sso/provider", { name: "Acme Login", issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, domain: "acme.test" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    dnsServer.txt.set("_switchboard-challenge.acme.test", [created.body.provider.verification.value]);
    expect((await owner.api("POST", "/api/v1/workspace/sso/provider/verify")).status).toBe(200);
  });

  afterAll(async () => {
    await sb?.stop();
    await idp?.close();
    await dnsServer?.close();
  });

  it("an email outside the verified domain is refused on the sign-in page: no user row, no session", async () => {
    for (const account of ["mallory", "sub"]) {
      idp.account = account;
      const landed = await signInThrough(sb.url, "acme-test");
      expect(landed.status).toBe(302);
      const location = new URL(landed.headers.get("location") ?? "", sb.url);
      expect(location.pathname).toBe("/sign-in");
      expect(location.searchParams.get("error")).toBe("email_outside_verified_domain");
      expect(location.searchParams.get("error_description")).toContain("acme.test");
      expect(landed.headers.getSetCookie().join(";")).not.toContain("session_token=");
    }
    const rows = await sb.db.all<{ email: string }>('SELECT email FROM "user" WHERE email IN (?, ?)', "victim@other.test", "sam@eng.acme.test");
    expect(rows).toEqual([]);
  });

  it("an email of the verified domain signs in", async () => {
    idp.account = "erin";
    const landed = await signInThrough(sb.url, "acme-test");
    expect(landed.status, await landed.clone().text()).toBe(302);
    expect(landed.headers.get("location")).toBe("/servers");
    const me = () => apiClient(sb.url)("GET", "/api/v1/me", undefined, { cookie: cookieOf(landed) });
    expect((await me()).status).toBe(200);
    expect(JSON.stringify((await me()).body)).toContain("erin@acme.test");
    // The session re-check refreshes at the IdP through the workspace's outbound policy, and the session stands.
    const checked = async () => (await sb.db.get<{ checked_at: unknown }>('SELECT t.checked_at FROM identity_token t JOIN "user" u ON u.id = t.user_id WHERE u.email = ?', "erin@acme.test"))?.checked_at;
    const first = String(await checked());
    await waitFor(async () => {
      expect((await me()).status).toBe(200);
      return String(await checked()) !== first;
    });
    expect((await me()).status).toBe(200);
  });

  it("the plugin's shared callback, which skips the provider in the path, is closed", async () => {
    const res = await fetch(`${sb.url}/api/auth/sso/callback?code=x&state=y`, { redirect: "manual" });
    expect(res.status).toBe(404);
  });

  it("a pending claim of a domain blocks no other workspace: the first to verify holds it", async () => {
    const cookie = await sessionCookie(sb.url, owner.email, owner.password);
    const inWorkspace = async (name: string) => {
      const created = await apiClient(sb.url)("POST", "/api/v1/workspaces", { name }, { cookie, origin: sb.url });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.workspace.id as string;
      return (method: string, path: string, body?: unknown) => apiClient(sb.url)(method, path, body, { cookie, origin: sb.url, "x-workspace-id": id });
    };
    const beta = await inWorkspace("Beta");
    const gamma = await inWorkspace("Gamma");
    const claim = { name: "Beta Login", issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, domain: "beta.test" };
    const squatted = await beta("POST", "/api/v1/workspace/sso/provider", claim);
    expect(squatted.status, JSON.stringify(squatted.body)).toBe(201);
    const real = await gamma("POST", "/api/v1/workspace/sso/provider", claim);
    expect(real.status, JSON.stringify(real.body)).toBe(201);
    expect(real.body.provider.providerId).not.toBe(squatted.body.provider.providerId);
    dnsServer.txt.set("_switchboard-challenge.beta.test", [real.body.provider.verification.value, squatted.body.provider.verification.value]);
    expect((await gamma("POST", "/api/v1/workspace/sso/provider/verify")).status).toBe(200);
    const late = await beta("POST", "/api/v1/workspace/sso/provider/verify");
    expect(late.status, JSON.stringify(late.body)).toBe(409);
    expect((await beta("GET", "/api/v1/workspace/sso")).body.sso.provider.state).toBe("pending");
    const delta = await inWorkspace("Delta");
    expect((await delta("POST", "/api/v1/workspace/sso/provider", claim)).status).toBe(409);
  });

  it("requiring SSO ends members' password sessions and revokes their API tokens; the owner keeps theirs", async () => {
    const invited = await owner.api("POST", "/api/v1/invitations", { email: "grace@example.com", role: "member" });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const accepted = await fetch(`${sb.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: invited.body.invitation.url.split("/invite/")[1], name: "Grace", password: "password-grace-123" }),
    });
    expect(accepted.status).toBe(200);
    const graceCookie = await sessionCookie(sb.url, "grace@example.com", "password-grace-123");
    const graceToken = (await apiClient(sb.url)("POST", "/api/v1/tokens", { name: "script" }, { cookie: graceCookie, origin: sb.url })).body.secret as string;
    expect((await apiClient(sb.url, graceToken)("GET", "/api/v1/me")).status).toBe(200);
    expect((await apiClient(sb.url)("GET", "/api/v1/me", undefined, { cookie: graceCookie })).status).toBe(200);

    const required = await owner.api("PATCH", "/api/v1/workspace/sso", { ssoRequired: true });
    expect(required.status, JSON.stringify(required.body)).toBe(200);
    expect((await apiClient(sb.url, graceToken)("GET", "/api/v1/me")).status).toBe(401);
    // The cookie as the browser holds it, the minute-long session cache included.
    expect((await apiClient(sb.url)("GET", "/api/v1/me", undefined, { cookie: graceCookie })).status).toBe(401);
    const grace = await sb.db.get<{ id: string }>('SELECT id FROM "user" WHERE email = ?', "grace@example.com");
    expect(await sb.db.all('SELECT id FROM "session" WHERE user_id = ?', grace!.id)).toEqual([]);
    expect((await owner.api("GET", "/api/v1/me")).status).toBe(200);
    const ownerCookie = await sessionCookie(sb.url, owner.email, owner.password);
    expect((await apiClient(sb.url)("GET", "/api/v1/me", undefined, { cookie: ownerCookie })).status).toBe(200);
    const audit = await owner.api("GET", "/api/v1/audit?action=workspace.sso_changed");
    expect(JSON.stringify(audit.body)).toContain('"membersTokensRevoked":1');
  });
});

/** A host name that resolves to 127.0.0.1 here (CI adds cimd.switchboard.test to /etc/hosts). */
const LOOPBACK_NAMES = ["cimd.switchboard.test", "vm", "runsc"];
const loopbackName = (await Promise.all(LOOPBACK_NAMES.map((n) => dns.lookup(n).then((a) => (a.address === "127.0.0.1" ? n : null), () => null)))).find(Boolean);
if (!loopbackName) console.warn(`hostile-sso: discovery case skipped, add "127.0.0.1 cimd.switchboard.test" to /etc/hosts (.ci/run does)`);

/** Issue 38: an owner's IdP named by a host name that resolves inside the network is refused like an MCP server would be. */
describe.skipIf(!loopbackName)("issuer discovery under the outbound network policy", () => {
  let sb: ConsoleHandle;
  let trap: net.Server;
  let connections = 0;
  let owner: Awaited<ReturnType<typeof setupOwner>>;

  beforeAll(async () => {
    trap = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => trap.listen(0, "127.0.0.1", resolve));
    sb = await startConsole({ env: { SWITCHBOARD_NETWORK_POLICY: "public" } });
    owner = await setupOwner(sb.url);
  });

  afterAll(async () => {
    await sb?.stop();
    await new Promise<void>((resolve) => trap?.close(() => resolve()));
  });

  it("an https issuer whose name resolves to loopback is refused with the rule, and nothing connects to it", async () => {
    const issuer = `https://${loopbackName}:${(trap.address() as net.AddressInfo).port}`;
    const res = await owner.api("POST", "/api/v1/workspace/sso/provider", { name: "Inside", issuer, clientId: "c", clientSecret: "s", domain: "inside.test" });
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error.message).toMatch(/Blocked by the outbound network policy: .* resolves to a loopback address/);
    expect(connections).toBe(0);
    expect((await owner.api("GET", "/api/v1/workspace/sso")).body.sso.provider).toBeNull();
  });
});

/** Issue 38: members' ID tokens go only to their IdP's own token endpoint. */
describe("an enterprise-managed server's IdP token endpoint", () => {
  let sb: ConsoleHandle;
  let mcp: OAuthMcpServer;
  let xaa: XaaServers;
  let collector: http.Server;
  let collected = 0;
  let collectorUrl = "";
  let owner: Api;
  let serverId = "";

  beforeAll(async () => {
    collector = http.createServer((_req, res) => {
      collected++;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ access_token: "x", issued_token_type: "urn:ietf:params:oauth:token-type:id-jag", token_type: "N_A" }));
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    collectorUrl = `http://127.0.0.1:${(collector.address() as net.AddressInfo).port}/token`;
    mcp = await startOAuthMcpServer();
    xaa = await startXaaServers({ resource: mcp.url, scope: TOOLS_SCOPE });
    mcp.setIssuer(xaa.as.issuer);
    sb = await startConsole();
    ({ api: owner } = await setupOwner(sb.url));
  });

  afterAll(async () => {
    await sb?.stop();
    await xaa?.close();
    await mcp?.close();
    await new Promise<void>((resolve) => collector?.close(() => resolve()));
  });

  const settings = () => ({
    url: mcp.url,
    authMode: "enterprise-managed",
    idpIssuer: xaa.idp.issuer,
    idpClientId: xaa.idp.clientId,
    idpClientSecret: xaa.idp.clientSecret,
    oauthClientId: xaa.as.clientId,
    oauthClientSecret: xaa.as.clientSecret,
    oauthIssuer: xaa.as.issuer,
  });

  it("a token endpoint that is not the issuer's own is refused at save (422), created or edited; the issuer's own is accepted", async () => {
    const refused = await owner("POST", "/api/v1/servers", { name: "collecting", ...settings(), idpTokenEndpoint: collectorUrl });
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expect(refused.body.error.message).toContain(`${xaa.idp.issuer}/token`);
    const created = await owner("POST", "/api/v1/servers", { name: "xaa", ...settings(), idpTokenEndpoint: `${xaa.idp.issuer}/token` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    serverId = created.body.server.id;
    const edited = await owner("PATCH", `/api/v1/servers/${serverId}`, { idpTokenEndpoint: collectorUrl });
    expect(edited.status, JSON.stringify(edited.body)).toBe(422);
    expect(collected).toBe(0);
  });

  it("one stored before the check is refused at use: the member's ID token never reaches it", async () => {
    expect((await owner("PUT", "/api/v1/me/identity-tokens", { issuer: xaa.idp.issuer, idToken: await xaa.idp.idToken("ada") })).status).toBe(200);
    // A server never read since it was saved (reads are cached for seconds), its endpoint then changed underneath.
    const created = await owner("POST", "/api/v1/servers", { name: "xaa-stored", ...settings() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(await sb.db.run('UPDATE "server" SET idp_token_endpoint = ? WHERE id = ?', collectorUrl, created.body.server.id)).toBe(1);
    const res = await owner("POST", `/api/v1/servers/${created.body.server.id}/tools/call`, { name: "whoami" });
    expect(res.status).toBeLessThan(500);
    expect(JSON.stringify(res.body)).toContain("is not");
    expect(collected).toBe(0);
    expect(xaa.idp.exchanges).toBe(0);
  });
});
