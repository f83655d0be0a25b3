import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, sessionCookie, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startDnsServer, type DnsServer } from "../support/dns-server";
import { cookieOf, throughAuthorizationServer } from "../support/oauth-browser";
import { startSsoIdp, type SsoIdp } from "../support/sso-idp";

/** Issue 31 §1: a workspace owner's own OIDC identity provider, active once the email domain is verified by DNS TXT. */
describe("a workspace's own identity provider", () => {
  let sb: ConsoleHandle;
  let idp: SsoIdp;
  let dns: DnsServer;
  let owner: Awaited<ReturnType<typeof setupOwner>>;
  const PROVIDER = { name: "Acme Login", clientSecret: "", clientId: "", issuer: "", domain: "acme.test" };

  function startSignIn(providerId: string) {
    return fetch(`${sb.url}/api/auth/sign-in/sso`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url },
      body: JSON.stringify({ providerId, callbackURL: "/servers" }),
    });
  }

  beforeAll(async () => {
    idp = await startSsoIdp({ providerIds: ["acme-test"] });
    idp.people.set("erin", { email: "erin@acme.test", name: "Erin" });
    Object.assign(PROVIDER, { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret });
    dns = await startDnsServer();
    // No operator IdP: the workspace's owner brings theirs. Its loopback origin must be trusted explicitly.
    sb = await startConsole({ env: { SWITCHBOARD_DNS_SERVERS: dns.address, SWITCHBOARD_TRUSTED_ORIGINS: idp.issuer } });
    owner = await setupOwner(sb.url);
  });

  afterAll(async () => {
    await sb?.stop();
    await idp?.close();
    await dns?.close();
  });

  it("an admin, not an owner, is refused", async () => {
    const invited = await owner.api("POST", "/api/v1/invitations", { email: "grace@example.com", role: "admin" });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const accepted = await fetch(`${sb.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: invited.body.invitation.url.split("/invite/")[1], name: "Grace", password: "password-grace-123" }),
    });
    expect(accepted.status).toBe(200);
    const cookie = await sessionCookie(sb.url, "grace@example.com", "password-grace-123");
    const res = await apiClient(sb.url)("POST", "/api/v1/workspace/sso/provider", PROVIDER, { cookie, origin: sb.url });
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error.code).toBe("forbidden");
    const verify = await apiClient(sb.url)("POST", "/api/v1/workspace/sso/provider/verify", undefined, { cookie, origin: sb.url });
    expect(verify.status).toBe(403);
  });

  it("the plugin's own registration endpoint is closed", async () => {
    const cookie = await sessionCookie(sb.url, owner.email, owner.password);
    const res = await fetch(`${sb.url}/api/auth/sso/register`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url, cookie },
      body: JSON.stringify({ providerId: "sneaky", issuer: idp.issuer, domain: "sneaky.test", oidcConfig: { clientId: "x", clientSecret: "y" } }),
    });
    expect(res.status).toBe(404);
  });

  it("bad input answers the documented error shape", async () => {
    const res = await owner.api("POST", "/api/v1/workspace/sso/provider", { ...PROVIDER, domain: "not a domain" });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("bad_request");
  });

  it("an owner registers an IdP; it signs nobody in until the TXT record verifies the domain; then a person of the domain joins with the default role", async () => {
    expect((await owner.api("PATCH", "/api/v1/workspace/sso", { ssoDefaultRole: "viewer" })).status).toBe(200);
    const created = await owner.api("POST", "/api/v1/workspace/sso/provider", PROVIDER);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const provider = created.body.provider;
    expect(provider).toMatchObject({ providerId: "acme-test", source: "workspace", name: "Acme Login", domain: "acme.test", state: "pending", redirectUri: `${sb.url}/api/auth/sso/callback/acme-test` });
    expect(provider.verification).toMatchObject({ type: "TXT", name: "_switchboard-challenge.acme.test" });
    expect(JSON.stringify(created.body)).not.toContain(idp.clientSecret);
    // The client secret is sealed in the SSO plugin's table; the sign-in below shows the plugin still gets it.
    const stored = await sb.db.get<{ oidc_config: string }>('SELECT oidc_config FROM "sso_provider" WHERE provider_id = ?', "acme-test");
    expect(stored?.oidc_config).toContain(idp.clientId);
    expect(stored?.oidc_config).not.toContain(idp.clientSecret);
    expect(JSON.parse(stored!.oidc_config).clientSecretSealed).toMatch(/^v1\./);

    // Pending: not offered, the sign-in refused, and SSO cannot be required yet.
    expect((await apiClient(sb.url)("GET", "/api/v1/sso")).body.providers).toEqual([]);
    const early = await startSignIn("acme-test");
    expect(early.status).toBe(401);
    expect((await owner.api("PATCH", "/api/v1/workspace/sso", { ssoRequired: true })).status).toBe(422);

    // No record yet, then a wrong one: still pending.
    const none = await owner.api("POST", "/api/v1/workspace/sso/provider/verify");
    expect(none.status).toBe(422);
    expect(none.body.error.message).toContain("_switchboard-challenge.acme.test");
    dns.txt.set("_switchboard-challenge.acme.test", ["switchboard-verification=someone-else"]);
    expect((await owner.api("POST", "/api/v1/workspace/sso/provider/verify")).status).toBe(422);
    expect((await owner.api("GET", "/api/v1/workspace/sso")).body.sso.provider.state).toBe("pending");

    dns.txt.set("_switchboard-challenge.acme.test", ["v=spf1 -all", provider.verification.value]);
    const verified = await owner.api("POST", "/api/v1/workspace/sso/provider/verify");
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body.provider).toMatchObject({ state: "active", verification: null });
    expect((await apiClient(sb.url)("GET", "/api/v1/sso")).body.providers).toEqual([{ providerId: "acme-test", name: "Acme Login" }]);

    idp.account = "erin";
    const started = await startSignIn("acme-test");
    const { url } = (await started.json()) as { url: string };
    expect(started.status, url).toBe(200);
    const back = await throughAuthorizationServer(sb.url, url);
    const landed = await fetch(back, { redirect: "manual", headers: { cookie: cookieOf(started) } });
    expect(landed.status, await landed.clone().text()).toBe(302);
    expect(landed.headers.get("location")).toBe("/servers");
    const me = await apiClient(sb.url)("GET", "/api/v1/me", undefined, { cookie: cookieOf(landed) });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(JSON.stringify(me.body)).toContain(`"role":"viewer"`);
    expect(JSON.stringify(me.body)).toContain("erin@acme.test");

    // Now SSO can be required.
    expect((await owner.api("PATCH", "/api/v1/workspace/sso", { ssoRequired: true })).body.sso).toMatchObject({ ssoRequired: true, provider: { state: "active" } });
  });

  it("a domain already claimed by another workspace is refused", async () => {
    const cookie = await sessionCookie(sb.url, owner.email, owner.password);
    const second = await apiClient(sb.url)("POST", "/api/v1/workspaces", { name: "Second" }, { cookie, origin: sb.url });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const res = await apiClient(sb.url)("POST", "/api/v1/workspace/sso/provider", PROVIDER, { cookie, origin: sb.url, "x-workspace-id": second.body.workspace.id });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.message).toContain("acme.test is already claimed");
  });
});
