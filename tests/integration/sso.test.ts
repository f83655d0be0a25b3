import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startOAuthMcpServer, TOOLS_SCOPE } from "../fixtures/oauth-mcp-server";
import { consoleSession } from "../support/oauth-browser";
import { startXaaServers } from "../support/xaa-servers";
import { ssoSignIn as signInThroughIdp, startSsoIdp, type SsoIdp } from "../support/sso-idp";

/** Issue 31 §1: sign in with OIDC (better-auth's SSO plugin) against a real OpenID provider on loopback. */
describe("single sign-on", () => {
  let sb: ConsoleHandle;
  let idp: SsoIdp;
  let owner: Awaited<ReturnType<typeof setupOwner>>;

  const ssoSignIn = (account: string) => signInThroughIdp(sb.url, idp, account);

  beforeAll(async () => {
    idp = await startSsoIdp();
    idp.people.set("carol", { email: "carol@example.com", name: "Carol" });
    sb = await startConsole({
      env: {
        SWITCHBOARD_SSO_ISSUER: idp.issuer,
        SWITCHBOARD_SSO_CLIENT_ID: idp.clientId,
        SWITCHBOARD_SSO_CLIENT_SECRET: idp.clientSecret,
        SWITCHBOARD_SSO_NAME: "Acme IdP",
        SWITCHBOARD_SSO_DOMAIN: "example.com",
        SWITCHBOARD_SSO_RECHECK_SECONDS: "1",
      },
    });
    owner = await setupOwner(sb.url);
  });

  afterAll(async () => {
    await sb?.stop();
    await idp?.close();
  });

  it("the sign-in page offers the identity provider", async () => {
    const res = await apiClient(sb.url)("GET", "/api/v1/sso");
    expect(res.body).toEqual({ providers: [{ providerId: "sso", name: "Acme IdP" }] });
  });

  it("a first sign-in through the IdP joins the workspace with its default role and keeps the ID token", async () => {
    const changed = await owner.api("PATCH", "/api/v1/workspace/sso", { ssoDefaultRole: "viewer" });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.sso).toMatchObject({ provider: { name: "Acme IdP", issuer: idp.issuer }, ssoDefaultRole: "viewer", recheckSeconds: 1 });
    const cookie = await ssoSignIn("carol");
    const me = await apiClient(sb.url)("GET", "/api/v1/me", undefined, { cookie });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(JSON.stringify(me.body)).toContain("carol@example.com");
    const members = (await owner.api("GET", "/api/v1/members")).body;
    expect(JSON.stringify(members)).toMatch(/carol@example\.com[^}]*"role":"viewer"|"role":"viewer"[^}]*carol@example\.com/);
    const tokens = (await apiClient(sb.url)("GET", "/api/v1/me/identity-tokens", undefined, { cookie })).body.items;
    expect(tokens).toEqual([expect.objectContaining({ issuer: idp.issuer })]);
  });

  it("a workspace that requires SSO refuses its member's password, not its owner's", async () => {
    const invited = await owner.api("POST", "/api/v1/invitations", { email: "bob@example.com", role: "member" });
    const accepted = await fetch(`${sb.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: invited.body.invitation.url.split("/invite/")[1], name: "Bob", password: "password-bob-123" }),
    });
    expect(accepted.status).toBe(200);
    await consoleSession(sb.url, "bob@example.com", "password-bob-123");
    expect((await owner.api("PATCH", "/api/v1/workspace/sso", { ssoRequired: true })).body.sso.ssoRequired).toBe(true);
    const refused = await fetch(`${sb.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url },
      body: JSON.stringify({ email: "bob@example.com", password: "password-bob-123" }),
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toMatch(/requires signing in with Acme IdP/);
    expect(refused.headers.getSetCookie().some((c) => c.includes("session_token=") && !c.includes("Max-Age=0"))).toBe(false);
    await consoleSession(sb.url, owner.email, owner.password);
  });

  it("the ID token of an SSO sign-in opens an enterprise-managed server, with no other sign-in", async () => {
    const mcp = await startOAuthMcpServer();
    const xaa = await startXaaServers({ resource: mcp.url, scope: TOOLS_SCOPE, idTokensFrom: { issuer: idp.issuer, audience: idp.clientId } });
    mcp.setIssuer(xaa.as.issuer);
    // The SSO IdP's own token endpoint makes the ID-JAG (by asking the xaa test IdP, which trusts its ID tokens).
    idp.exchangeAt = { tokenEndpoint: `${xaa.idp.issuer}/token`, clientId: xaa.idp.clientId, clientSecret: xaa.idp.clientSecret };
    try {
      const created = await owner.api("POST", "/api/v1/servers", {
        name: "xaa-sso",
        url: mcp.url,
        authMode: "enterprise-managed",
        idpIssuer: idp.issuer,
        idpTokenEndpoint: `${idp.issuer}/token`,
        idpClientId: idp.exchangeClient.clientId,
        idpClientSecret: idp.exchangeClient.clientSecret,
        oauthClientId: xaa.as.clientId,
        oauthClientSecret: xaa.as.clientSecret,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect((await owner.api("PATCH", "/api/v1/workspace/sso", { ssoDefaultRole: "member" })).status).toBe(200);
      idp.people.set("dave", { email: "dave@example.com", name: "Dave" });
      const cookie = await ssoSignIn("dave");
      const res = await apiClient(sb.url)("POST", `/api/v1/servers/${created.body.server.id}/tools/call`, { name: "whoami" }, { cookie });
      expect(res.body.call?.status, JSON.stringify(res.body)).toBe("ok");
      expect(JSON.stringify(res.body.call.result)).toContain("You are dave");
      expect(xaa.idp.exchanges).toBe(1);
    } finally {
      await xaa.close();
      await mcp.close();
    }
  });

  it("removing the person at the IdP ends their console session within the re-check bound", async () => {
    const cookie = await ssoSignIn("carol");
    const me = () => apiClient(sb.url)("GET", "/api/v1/me", undefined, { cookie });
    expect((await me()).status).toBe(200);
    idp.people.delete("carol");
    const removedAt = Date.now();
    await waitFor(async () => (await me()).status === 401, 10_000);
    // The bound is SWITCHBOARD_SSO_RECHECK_SECONDS (1 s here), plus the request that notices.
    expect(Date.now() - removedAt).toBeLessThan(5_000);
    expect((await me()).body.error.message).toMatch(/sign in again|Sign in/);
  });
});
