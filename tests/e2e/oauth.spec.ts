import { expect, test } from "@playwright/test";
import { ADMIN_SCOPE, startOAuthMcpServer, TOOLS_SCOPE, type OAuthMcpServer } from "../fixtures/oauth-mcp-server";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startAuthorizationServer, type AuthorizationServer } from "../support/oauth-server";
import { ResultPage } from "../pages/result-page";

const OWNER = { email: "ada@example.com", password: "correct horse battery" };

let sb: ConsoleHandle;
let as: AuthorizationServer;
let mcp: OAuthMcpServer;

test.beforeAll(async () => {
  mcp = await startOAuthMcpServer();
  // Inside the console's 30 s refresh margin: every use refreshes the token silently first.
  as = await startAuthorizationServer({ resource: mcp.url, scopes: [TOOLS_SCOPE, ADMIN_SCOPE], accessTokenTtl: 20 });
  mcp.setIssuer(as.issuer);
  sb = await startConsole();
  await setupOwner(sb.url);
});
test.afterAll(async () => {
  await sb?.stop();
  await as?.close();
  await mcp?.close();
});

test("add an OAuth server → sign-in needed → sign in at the authorization server → tools → call → refresh → step-up → sign out", async ({ page }) => {
  const ui = new ResultPage(page, sb.url);
  await ui.signIn(OWNER);

  await page.getByRole("link", { name: "Add server" }).first().click();
  await page.getByLabel("Name", { exact: true }).fill("guarded");
  await page.getByLabel("URL").fill(mcp.url);
  await page.getByLabel("Authorization").selectOption("oauth-per-member");
  await page.getByRole("button", { name: "Add server" }).click();
  await expect(page).toHaveURL(/\/servers\/(?!new)[\w-]+$/);

  const panel = page.getByRole("region", { name: "OAuth" });
  await expect(panel.getByTestId("oauth-state")).toHaveText("Not signed in");
  // Listing tools needed a sign-in: the page says so in one word everywhere, and offers the sign-in where the tools would be.
  await expect(page.getByTestId("server-status")).toHaveText("signed out");
  const tools = page.getByRole("tabpanel", { name: "Tools" });
  await expect(tools).toContainText('"guarded" needs your own sign-in');
  await expect(tools.getByRole("button", { name: "Sign in to guarded" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Servers" }).getByRole("link", { name: "guarded (signed out)" })).toBeVisible();

  await panel.getByRole("button", { name: "Sign in to guarded" }).click();
  await expect(page).toHaveURL(/\/servers\/[\w-]+\?oauth=signed-in$/);
  await expect(panel.getByTestId("oauth-state")).toContainText(`Signed in · scope`);
  await expect(panel.getByTestId("oauth-state")).toContainText(TOOLS_SCOPE);

  // Back on the server page, its tools are listed at once.
  await expect(page.getByRole("button", { name: /^whoami\b/ })).toBeVisible();
  const tokensBefore = as.requests.filter((r) => r === "POST /token").length;
  await ui.run("whoami");
  await expect(ui.result()).toContainText("You are alice");
  expect(as.requests.filter((r) => r === "POST /token").length).toBeGreaterThan(tokensBefore);

  // A tool that needs more scope: the call's error asks to sign in again, which consents to it.
  await ui.run("admin-only");
  await page.getByRole("button", { name: "Sign in again to allow more" }).click();
  await expect(page).toHaveURL(/\?oauth=signed-in$/);
  await expect(panel.getByTestId("oauth-state")).toContainText(ADMIN_SCOPE);
  await ui.run("admin-only");
  await expect(ui.result()).toContainText("admin things");

  // The call's page says whose identity the server saw.
  await page.getByRole("link", { name: "Permalink" }).first().click();
  await expect(page.getByRole("region", { name: "Details" })).toContainText("Signed in as");
  await expect(page.getByRole("region", { name: "Details" })).toContainText("(own sign-in)");
  await page.goBack();

  await panel.getByRole("button", { name: "Sign out of this server" }).click();
  await expect(panel.getByTestId("oauth-state")).toHaveText("Not signed in");
  expect(as.requests).toContain("POST /token/revocation");
});
