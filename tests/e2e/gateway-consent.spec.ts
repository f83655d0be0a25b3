import AxeBuilder from "@axe-core/playwright";
import { auth } from "@modelcontextprotocol/client";
import { expect, test } from "@playwright/test";
import { HOST_REDIRECT, TestHost } from "../support/oauth-host";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let endpoint: string;
let owner: { email: string; password: string };

test.beforeAll(async () => {
  sb = await startConsole();
  const setup = await setupOwner(sb.url);
  owner = { email: setup.email, password: setup.password };
  expect((await setup.api("POST", "/api/v1/servers", { name: "memory", url: "http://127.0.0.1:2/mcp" })).status).toBe(201);
  endpoint = `${sb.url}/mcp/${encodeURIComponent(setup.workspace.slug)}/memory`;
});
test.afterAll(async () => {
  await sb?.stop();
});

test("a host signs a person in, asks for consent and gets a token for the endpoint", async ({ browser }) => {
  const host = new TestHost("Claude-ish <b>Host</b>");
  expect(await auth(host, { serverUrl: endpoint })).toBe("REDIRECT");

  // A phone-sized window in dark mode: the consent page must fit and read well there too.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: "dark" });
  await context.addInitScript(() => localStorage.setItem("theme", "dark"));
  const page = await context.newPage();
  let callback: URL | undefined;
  await page.route(`${HOST_REDIRECT}**`, (route) => {
    callback = new URL(route.request().url());
    return route.fulfill({ contentType: "text/plain", body: "back in the host" });
  });

  await page.goto(host.authorizationUrl!.href);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(page).toHaveURL(/\/oauth\/consent\?/);
  await expect(page.getByRole("heading", { name: /Allow .*Claude-ish <b>Host<\/b>.* to use Switchboard\?/ })).toBeVisible();
  await expect(page.getByRole("region", { name: "Endpoints" })).toContainText("the server memory in Default");
  await expect(page.getByRole("region", { name: "Permissions" })).toContainText("call tools");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath("consent-390-dark.png"), fullPage: true });

  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page.getByText("back in the host")).toBeVisible();
  expect(callback?.searchParams.get("code")).toBeTruthy();
  expect(await auth(host, { serverUrl: endpoint, authorizationCode: callback!.searchParams.get("code")!, iss: callback!.searchParams.get("iss") ?? undefined })).toBe("AUTHORIZED");
  expect(host.saved?.access_token).toBeTruthy();
  expect(host.saved?.scope?.split(" ").sort()).toEqual(["gateway", "offline_access"]);
  await context.close();
});

test("Deny sends the host access_denied", async ({ browser }) => {
  const host = new TestHost("Claude-ish <b>Host</b>");
  await auth(host, { serverUrl: endpoint });
  const context = await browser.newContext();
  const page = await context.newPage();
  let callback: URL | undefined;
  await page.route(`${HOST_REDIRECT}**`, (route) => {
    callback = new URL(route.request().url());
    return route.fulfill({ contentType: "text/plain", body: "back in the host" });
  });
  await page.goto(host.authorizationUrl!.href);
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByText("back in the host")).toBeVisible();
  expect(callback?.searchParams.get("error")).toBe("access_denied");
  await context.close();
});
