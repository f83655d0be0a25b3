import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { consoleSession, cookieOf } from "../support/oauth-browser";
import { startSamlIdp, type SamlIdp } from "../support/saml-idp";

const SESSION_SECONDS = 5;

/** Issue 31 §1: sign in with SAML 2.0 (better-auth's SSO plugin and samlify) against a real SAML IdP on loopback. */
describe("single sign-on with SAML", () => {
  let sb: ConsoleHandle;
  let idp: SamlIdp;
  let owner: Awaited<ReturnType<typeof setupOwner>>;

  /** What a browser does after "Sign in with Acme SAML": the IdP's page, whose form POSTs the SAMLResponse to the console. */
  async function samlSignIn(account: string): Promise<Response> {
    idp.account = account;
    const started = await fetch(`${sb.url}/api/auth/sign-in/sso`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url },
      body: JSON.stringify({ providerId: "saml", callbackURL: "/servers" }),
    });
    const { url } = (await started.json()) as { url: string };
    expect(started.status, url).toBe(200);
    expect(url.startsWith(`${idp.entryPoint}?SAMLRequest=`)).toBe(true);
    const page = await fetch(url);
    const html = await page.text();
    expect(page.status, html).toBe(200);
    const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&amp;/g, "&");
    const action = unescape(/<form method="POST" action="([^"]+)"/.exec(html)![1]!);
    const fields = [...html.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, unescape(m[2]!)]);
    expect(action).toBe(`${sb.url}/api/auth/sso/saml2/sp/acs/saml`);
    // A cross-site form POST: the IdP's origin, none of the console's cookies.
    const posted = await fetch(action, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(idp.entryPoint).origin },
      body: new URLSearchParams(fields),
    });
    if (posted.status !== 200) return posted;
    // The console's page posts it again from its own origin, which carries its SameSite=Lax cookies (the sign-in this browser started).
    const again = await posted.text();
    const decode = (s: string) => unescape(s).replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
    return fetch(`${sb.url}${decode(/<form method="POST" action="([^"]+)"/.exec(again)![1]!)}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: sb.url, cookie: cookieOf(started) },
      body: new URLSearchParams([...again.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, decode(m[2]!)])),
    });
  }

  const hasSession = (res: Response) => res.headers.getSetCookie().some((c) => c.includes("session_token=") && !c.includes("Max-Age=0"));

  beforeAll(async () => {
    idp = await startSamlIdp();
    idp.people.set("carol", { email: "carol@example.com" });
    idp.people.set("dave", { email: "dave@example.com" });
    sb = await startConsole({
      env: {
        SWITCHBOARD_SAML_ENTRY_POINT: idp.entryPoint,
        SWITCHBOARD_SAML_ISSUER: idp.entityId,
        SWITCHBOARD_SAML_CERT: idp.cert,
        SWITCHBOARD_SAML_NAME: "Acme SAML",
        SWITCHBOARD_SAML_SESSION_SECONDS: String(SESSION_SECONDS),
        SWITCHBOARD_SSO_DOMAIN: "example.com",
      },
    });
    idp.serviceProvider = { entityId: "switchboard", acsUrl: `${sb.url}/api/auth/sso/saml2/sp/acs/saml` };
    owner = await setupOwner(sb.url);
  });

  afterAll(async () => {
    await sb?.stop();
    await idp?.close();
  });

  it("the sign-in page offers the SAML identity provider", async () => {
    const res = await apiClient(sb.url)("GET", "/api/v1/sso");
    expect(res.body).toEqual({ providers: [{ providerId: "saml", name: "Acme SAML" }] });
  });

  it("a first sign-in through the SAML IdP joins the workspace with its default role", async () => {
    const changed = await owner.api("PATCH", "/api/v1/workspace/sso", { ssoDefaultRole: "viewer" });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.sso.provider).toMatchObject({ providerId: "saml", name: "Acme SAML", issuer: idp.entityId, redirectUri: `${sb.url}/api/auth/sso/saml2/sp/acs/saml` });
    const landed = await samlSignIn("carol");
    expect(landed.status, await landed.clone().text()).toBe(302);
    expect(landed.headers.get("location")).toBe("/servers");
    const cookie = cookieOf(landed);
    const me = await apiClient(sb.url)("GET", "/api/v1/me", undefined, { cookie });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(JSON.stringify(me.body)).toContain("carol@example.com");
    const members = (await owner.api("GET", "/api/v1/members")).body;
    expect(JSON.stringify(members)).toMatch(/carol@example\.com[^}]*"role":"viewer"|"role":"viewer"[^}]*carol@example\.com/);
    // SAML yields no ID token for enterprise-managed servers.
    expect((await apiClient(sb.url)("GET", "/api/v1/me/identity-tokens", undefined, { cookie })).body.items).toEqual([]);
  });

  it("a response signed by another key is refused: no session, no membership", async () => {
    idp.forge = true;
    try {
      const landed = await samlSignIn("dave");
      expect(landed.status).toBe(302);
      expect(landed.headers.get("location")).toMatch(/[?&]error=saml_error&error_description=Invalid\+SAML\+response/);
      expect(hasSession(landed)).toBe(false);
    } finally {
      idp.forge = false;
    }
    expect(JSON.stringify((await owner.api("GET", "/api/v1/members")).body)).not.toContain("dave@example.com");
    // The same sign-in signed with the configured certificate's key goes through.
    const genuine = await samlSignIn("dave");
    expect(genuine.headers.get("location")).toBe("/servers");
    expect(hasSession(genuine)).toBe(true);
  });

  it("a workspace that requires SSO (its SAML provider) refuses its member's password", async () => {
    const invited = await owner.api("POST", "/api/v1/invitations", { email: "bob@example.com", role: "member" });
    const accepted = await fetch(`${sb.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: invited.body.invitation.url.split("/invite/")[1], name: "Bob", password: "password-bob-123" }),
    });
    expect(accepted.status).toBe(200);
    await consoleSession(sb.url, "bob@example.com", "password-bob-123");
    const required = await owner.api("PATCH", "/api/v1/workspace/sso", { ssoRequired: true });
    expect(required.body.sso?.ssoRequired, JSON.stringify(required.body)).toBe(true);
    const refused = await fetch(`${sb.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url },
      body: JSON.stringify({ email: "bob@example.com", password: "password-bob-123" }),
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toMatch(/requires signing in with Acme SAML/);
    expect(hasSession(refused)).toBe(false);
    await consoleSession(sb.url, owner.email, owner.password);
  });

  it("a SAML sign-in ends after SWITCHBOARD_SAML_SESSION_SECONDS (nothing can refresh it)", async () => {
    const landed = await samlSignIn("carol");
    expect(landed.status).toBe(302);
    const signedInAt = Date.now();
    const me = () => apiClient(sb.url)("GET", "/api/v1/me", undefined, { cookie: cookieOf(landed) });
    expect((await me()).status).toBe(200);
    await waitFor(async () => (await me()).status === 401, 20_000);
    expect(Date.now() - signedInAt).toBeGreaterThanOrEqual(SESSION_SECONDS * 1000 - 1000);
    expect((await me()).body.error.message).toMatch(/sign in again/);
  });
});
