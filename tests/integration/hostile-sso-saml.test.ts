import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { cookieOf } from "../support/oauth-browser";
import { startSamlIdp, type SamlIdp } from "../support/saml-idp";

/** Issue 38: a SAML response counts only in the browser that started its sign-in. */
describe("a SAML response posted into another browser", () => {
  let sb: ConsoleHandle;
  let idp: SamlIdp;

  beforeAll(async () => {
    idp = await startSamlIdp();
    idp.people.set("mallory", { email: "mallory@example.com" });
    sb = await startConsole({ env: { SWITCHBOARD_SAML_ENTRY_POINT: idp.entryPoint, SWITCHBOARD_SAML_ISSUER: idp.entityId, SWITCHBOARD_SAML_CERT: idp.cert, SWITCHBOARD_SSO_DOMAIN: "example.com" } });
    idp.serviceProvider = { entityId: "switchboard", acsUrl: `${sb.url}/api/auth/sso/saml2/sp/acs/saml` };
    await setupOwner(sb.url);
  });

  afterAll(async () => {
    await sb?.stop();
    await idp?.close();
  });

  const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&amp;/g, "&").replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  const formOf = (html: string) => new URLSearchParams([...html.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1]!, unescape(m[2]!)]));

  /** A sign-in started in one browser (its cookie) and the IdP's signed answer to it (the form fields). */
  async function startedSignIn(): Promise<{ cookie: string; fields: URLSearchParams }> {
    const started = await fetch(`${sb.url}/api/auth/sign-in/sso`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url },
      body: JSON.stringify({ providerId: "saml", callbackURL: "/servers", errorCallbackURL: "/sign-in" }),
    });
    const { url } = (await started.json()) as { url: string };
    return { cookie: cookieOf(started), fields: formOf(await (await fetch(url)).text()) };
  }

  const post = (fields: URLSearchParams, cookie?: string) =>
    fetch(`${sb.url}/api/auth/sso/saml2/sp/acs/saml`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: sb.url, ...(cookie ? { cookie } : {}) },
      body: fields,
    });
  const refused = (res: Response) => {
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/sign-in\?error=saml_response_not_started_here/);
    expect(res.headers.getSetCookie().some((c) => c.includes("session_token=") && !c.includes("Max-Age=0"))).toBe(false);
  };

  it("a valid signed response without its RelayState is refused", async () => {
    idp.account = "mallory";
    const { cookie, fields } = await startedSignIn();
    expect(fields.get("RelayState")).toBeTruthy();
    fields.delete("RelayState");
    refused(await post(fields, cookie));
  });

  it("a response with another browser's RelayState is refused, with that browser's cookie or none", async () => {
    idp.account = "mallory";
    const victim = await startedSignIn();
    const attacker = await startedSignIn();
    refused(await post(attacker.fields, victim.cookie));
    // A browser with no sign-in under way is handed the same-site re-post, which then finds none either.
    const page = await post(attacker.fields);
    expect(page.status).toBe(200);
    refused(await post(formOf(await page.text())));
    // The attacker's own browser still completes its sign-in.
    const own = await post(attacker.fields, attacker.cookie);
    expect(own.status, await own.clone().text()).toBe(302);
    expect(own.headers.get("location")).toBe("/servers");
  });
});
