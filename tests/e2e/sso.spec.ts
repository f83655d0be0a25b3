import { expect, test } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startSsoIdp, type SsoIdp } from "../support/sso-idp";

let sb: ConsoleHandle;
let idp: SsoIdp;
let owner: Awaited<ReturnType<typeof setupOwner>>;

test.beforeAll(async () => {
  idp = await startSsoIdp();
  idp.people.set("carol", { email: "carol@example.com", name: "Carol" });
  sb = await startConsole({
    env: {
      SWITCHBOARD_SSO_ISSUER: idp.issuer,
      SWITCHBOARD_SSO_CLIENT_ID: idp.clientId,
      SWITCHBOARD_SSO_CLIENT_SECRET: idp.clientSecret,
      SWITCHBOARD_SSO_NAME: "Acme IdP",
      SWITCHBOARD_SSO_DOMAIN: "example.com",
    },
  });
  owner = await setupOwner(sb.url);
  expect((await owner.api("PATCH", "/api/v1/workspace/sso", { ssoDefaultRole: "viewer" })).status).toBe(200);
});
test.afterAll(async () => {
  await sb?.stop();
  await idp?.close();
});

test("sign in with the identity provider → land in the workspace as a viewer; a workspace that requires SSO refuses a member's password", async ({ page, browser }) => {
  await page.goto(`${sb.url}/sign-in`);
  await page.getByRole("button", { name: "Sign in with Acme IdP" }).click();
  // The IdP's login and consent run by themselves; the browser comes back signed in.
  await expect(page).toHaveURL(/\/servers/);
  const me = await (await page.request.get(`${sb.url}/api/v1/me`)).json();
  expect(JSON.stringify(me)).toContain("carol@example.com");
  expect(JSON.stringify(me)).toContain('"role":"viewer"');

  const invited = await owner.api("POST", "/api/v1/invitations", { email: "bob@example.com", role: "member" });
  const accepted = await fetch(`${sb.url}/api/v1/invitations/accept`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: invited.body.invitation.url.split("/invite/")[1], name: "Bob", password: "password-bob-123" }),
  });
  expect(accepted.status).toBe(200);
  expect((await owner.api("PATCH", "/api/v1/workspace/sso", { ssoRequired: true })).status).toBe(200);

  const context = await browser.newContext();
  const bob = await context.newPage();
  await bob.goto(`${sb.url}/sign-in`);
  await bob.getByLabel("Email").fill("bob@example.com");
  await bob.getByLabel("Password").fill("password-bob-123");
  await bob.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(bob.getByRole("form", { name: "Sign in" }).getByRole("alert")).toContainText('requires signing in with Acme IdP: use "Sign in with Acme IdP"');
  await expect(bob).toHaveURL(/\/sign-in/);
  await context.close();
});
