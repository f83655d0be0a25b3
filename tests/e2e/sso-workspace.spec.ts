import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startDnsServer, type DnsServer } from "../support/dns-server";
import { startSsoIdp, type SsoIdp } from "../support/sso-idp";

let sb: ConsoleHandle;
let idp: SsoIdp;
let dns: DnsServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;

test.beforeAll(async () => {
  idp = await startSsoIdp({ providerIds: ["acme-test"] });
  idp.people.set("erin", { email: "erin@acme.test", name: "Erin" });
  idp.account = "erin";
  dns = await startDnsServer();
  sb = await startConsole({ env: { SWITCHBOARD_DNS_SERVERS: dns.address, SWITCHBOARD_TRUSTED_ORIGINS: idp.issuer } });
  owner = await setupOwner(sb.url);
});
test.afterAll(async () => {
  await sb?.stop();
  await idp?.close();
  await dns?.close();
});

test("the owner adds the workspace's identity provider, publishes the TXT record, verifies it, requires SSO; a person of the domain signs in through it", async ({ page, browser }) => {
  await page.goto(`${sb.url}/sign-in`);
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
  await page.goto(`${sb.url}/settings/workspace`);

  const section = page.getByRole("region", { name: "Single sign-on" });
  const add = section.getByRole("form", { name: "Add an identity provider" });
  await add.getByLabel("Name").fill("Acme Login");
  await add.getByLabel("Email domain").fill("acme.test");
  await add.getByLabel("Issuer URL").fill(idp.issuer);
  await add.getByLabel("Client ID").fill(idp.clientId);
  await add.getByLabel("Client secret").fill(idp.clientSecret);
  await add.getByRole("button", { name: "Add identity provider" }).click();

  await expect(section.getByText("Domain not verified")).toBeVisible();
  await expect(section.getByTestId("sso-record-name")).toHaveText("_switchboard-challenge.acme.test");
  const value = (await section.getByTestId("sso-record-value").textContent())!;
  // Requiring SSO waits for an active provider.
  await expect(section.getByLabel(/Require single sign-on/)).toBeDisabled();
  const axe = await new AxeBuilder({ page }).include('section[aria-labelledby="workspace-sso-title"]').analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  await section.getByRole("button", { name: "Verify" }).click();
  await expect(section.getByRole("alert")).toContainText("No TXT record _switchboard-challenge.acme.test");
  dns.txt.set("_switchboard-challenge.acme.test", [value]);
  await section.getByRole("button", { name: "Verify" }).click();
  await expect(section.getByText("Active", { exact: true })).toBeVisible();
  await expect(section.getByTestId("sso-record-name")).toHaveCount(0);

  await section.getByLabel("Role at the first sign-in").selectOption("viewer");
  await section.getByLabel(/Require single sign-on/).check();
  await section.getByRole("button", { name: "Save single sign-on" }).click();
  await expect(section.getByText("Saved.")).toBeVisible();
  expect((await owner.api("GET", "/api/v1/workspace/sso")).body.sso).toMatchObject({ ssoRequired: true, ssoDefaultRole: "viewer", provider: { state: "active" } });

  const context = await browser.newContext();
  const erin = await context.newPage();
  await erin.goto(`${sb.url}/sign-in`);
  await erin.getByRole("button", { name: "Sign in with Acme Login" }).click();
  await expect(erin).toHaveURL(/\/servers/);
  const me = JSON.stringify(await (await erin.request.get(`${sb.url}/api/v1/me`)).json());
  expect(me).toContain("erin@acme.test");
  expect(me).toContain('"role":"viewer"');
  await context.close();

  // Removing the provider asks first; then nobody is offered it and SSO is no longer required.
  await section.getByRole("button", { name: "Remove this identity provider" }).click();
  const confirm = page.getByRole("dialog", { name: "Remove “Acme Login”?" });
  await expect(confirm).toContainText("single sign-on stops being required");
  await confirm.getByRole("button", { name: "Remove identity provider" }).click();
  await expect(confirm).toBeHidden();
  await expect(section.getByRole("form", { name: "Add an identity provider" })).toBeVisible();
  expect((await owner.api("GET", "/api/v1/workspace/sso")).body.sso).toMatchObject({ ssoRequired: false, provider: null });
  expect((await owner.api("GET", "/api/v1/sso")).body.providers).toEqual([]);
});
