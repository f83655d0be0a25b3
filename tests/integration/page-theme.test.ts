import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, sessionCookie, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";

/** The theme a page load's answer sets in sb-theme (the browser holding a stale one): a value, "" when it deletes the cookie. */
async function pageTheme(base: string, cookie: string): Promise<string | null> {
  const res = await fetch(`${base}/servers`, { headers: { cookie: `${cookie}; sb-theme=stale` } });
  await res.arrayBuffer();
  const set = res.headers.getSetCookie().find((c) => c.startsWith("sb-theme="));
  return set === undefined ? null : set.slice("sb-theme=".length).split(";")[0]!;
}

// proxy.ts keeps each session's theme briefly (lib/team/workspaces/page-theme.ts): these check what that cache must never get wrong.
describe("the theme cookie of page loads, kept per session", () => {
  let sb: ConsoleHandle;
  let owner: Awaited<ReturnType<typeof setupOwner>>;
  let ownerCookie: string;
  let memberCookie: string;

  beforeAll(async () => {
    sb = await startConsole();
    owner = await setupOwner(sb.url);
    ownerCookie = await sessionCookie(sb.url, owner.email, owner.password);
    const invited = await owner.api("POST", "/api/v1/invitations", { email: "grace@example.com", role: "viewer" });
    const accepted = await fetch(`${sb.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url },
      body: JSON.stringify({ token: (invited.body.invitation.url as string).split("/invite/")[1], name: "Grace", password: "grace-password" }),
    });
    expect(accepted.status).toBe(200);
    memberCookie = accepted.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  });
  afterAll(async () => {
    await sb?.stop();
  });

  it("gives each session its own person's theme, whoever loaded a page before", async () => {
    expect(await pageTheme(sb.url, ownerCookie)).toBe("");
    expect(await pageTheme(sb.url, memberCookie)).toBe("");
    const member = (method: string, route: string, body?: unknown) => apiClient(sb.url)(method, route, body, { cookie: memberCookie });
    expect((await member("PATCH", "/api/v1/me", { theme: "light" })).status).toBe(200);
    expect((await owner.api("PATCH", "/api/v1/me", { theme: "dark" })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect(await pageTheme(sb.url, ownerCookie)).toBe("dark");
      expect(await pageTheme(sb.url, memberCookie)).toBe("light");
    }
  });

  it("carries a newly saved theme from the next page load", async () => {
    expect(await pageTheme(sb.url, ownerCookie)).toBe("dark");
    expect((await owner.api("PATCH", "/api/v1/me", { theme: "system" })).status).toBe(200);
    expect(await pageTheme(sb.url, ownerCookie)).toBe("system");
    expect(await pageTheme(sb.url, memberCookie)).toBe("light");
  });

  it("gives a made-up session cookie nothing", async () => {
    const token = ownerCookie.split("; ").find((c) => c.includes("session_token="))!;
    const forged = token.replace(/(session_token=)[^;.]+/, "$1notarealtoken");
    expect(forged).not.toBe(token);
    expect(await pageTheme(sb.url, forged)).toBe("");
  });

  it("stops carrying a signed-out session's theme within the cache's 10 s", async () => {
    const cookie = await sessionCookie(sb.url, owner.email, owner.password);
    expect(await pageTheme(sb.url, cookie)).toBe("system");
    const out = await fetch(`${sb.url}/api/auth/sign-out`, { method: "POST", headers: { cookie, origin: sb.url, "content-type": "application/json" }, body: "{}" });
    expect(out.status).toBe(200);
    // Only the session token: the signed session data cookie alone would be trusted for its own 60 s.
    const token = cookie.split("; ").filter((c) => c.includes("session_token=")).join("; ");
    const started = Date.now();
    await waitFor(async () => (await pageTheme(sb.url, token)) === "", 15_000);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);
});
