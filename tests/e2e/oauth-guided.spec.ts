import { expect, test } from "@playwright/test";
import { startOAuthMcpServer, TOOLS_SCOPE, type OAuthMcpServer } from "../fixtures/oauth-mcp-server";
import { startOddServer, type OddServer } from "../fixtures/oauth-odd-server";
import { ConsolePage } from "../pages/console-page";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startAuthorizationServer, type AuthorizationServer } from "../support/oauth-server";

const OWNER = { email: "ada@example.com", password: "correct horse battery" };
const SHOTS = "docs/screenshots";

let sb: ConsoleHandle;
let as: AuthorizationServer;
let mcp: OAuthMcpServer;
let odd: OddServer;
let guardedId: string;
let oddId: string;

test.beforeAll(async () => {
  mcp = await startOAuthMcpServer();
  as = await startAuthorizationServer({ resource: mcp.url, scopes: [TOOLS_SCOPE] });
  mcp.setIssuer(as.issuer);
  odd = await startOddServer();
  sb = await startConsole();
  const { api } = await setupOwner(sb.url);
  guardedId = (await api("POST", "/api/v1/servers", { name: "guarded", url: mcp.url, authMode: "oauth-per-member" })).body.server.id;
  oddId = (await api("POST", "/api/v1/servers", { name: "homemade", url: odd.mcpUrl("no-registration"), authMode: "oauth-per-member" })).body.server.id;
});
test.afterAll(async () => {
  await sb?.stop();
  await as?.close();
  await mcp?.close();
  await odd?.close();
});

test("the guided OAuth view: run checks, sign in, and read every step with its request and answer", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(OWNER);
  await page.goto(`${sb.url}/servers/${guardedId}`);
  await expect(page.getByTestId("oauth-state")).toHaveText("Not signed in");
  await page.getByRole("region", { name: "OAuth" }).getByRole("link", { name: "Step by step" }).click();
  await expect(page).toHaveURL(new RegExp(`/servers/${guardedId}/oauth$`));
  await expect(page.getByRole("heading", { name: "OAuth, step by step" })).toBeVisible();

  await page.getByRole("button", { name: "Run checks" }).click();
  const checks = page.getByRole("list", { name: "Check steps" });
  await expect(checks.getByRole("listitem")).toHaveCount(5);
  await expect(page.getByTestId("oauth-verdict").first()).toHaveText("Every step that ran passed");
  for (const id of ["challenge", "resource-metadata", "as-metadata", "client"]) await expect(checks.getByTestId(`oauth-step-${id}`)).toHaveAttribute("data-status", "ok");
  await expect(checks.getByTestId("oauth-step-client")).toContainText("Dynamic Client Registration");

  await page.getByRole("button", { name: "Sign in to guarded" }).click();
  await expect(page).toHaveURL(/\/servers\/[\w-]+\?oauth=signed-in$/);
  await page.goto(`${sb.url}/servers/${guardedId}/oauth`);
  const flow = page.getByRole("list", { name: "Sign-in steps" });
  await expect(flow.getByRole("listitem")).toHaveCount(6);
  await expect(flow.getByTestId("oauth-step-token")).toHaveAttribute("data-status", "ok");
  await expect(flow.getByTestId("oauth-step-authorize").getByRole("cell", { name: "code_challenge_method" })).toBeVisible();
  const token = flow.getByTestId("oauth-step-token");
  await token.locator("summary").first().click();
  await expect(token.getByRole("region", { name: "Response" })).toContainText("[redacted]");
  await expect(page.locator("body")).not.toContainText(/eyJ[\w-]{4,}\./);
  // The console scrolls inside its main pane: a tall viewport shows the checks and the sign-in together.
  await token.locator("summary").first().click();
  await page.setViewportSize({ width: 1440, height: 2000 });
  await page.getByRole("heading", { name: "OAuth, step by step" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/oauth-guided.png` });
  await page.setViewportSize({ width: 1440, height: 900 });

  // A server built without registration or client metadata documents: the diagnosis says what to do.
  await page.goto(`${sb.url}/servers/${oddId}/oauth`);
  await page.getByRole("button", { name: "Run checks" }).click();
  const client = page.getByRole("list", { name: "Check steps" }).getByTestId("oauth-step-client");
  await expect(client).toHaveAttribute("data-status", "failed");
  await expect(page.getByTestId("oauth-verdict").first()).toHaveText("Stops at “Client identity”");
  await expect(client.getByRole("alert")).toContainText("offers neither registration nor client metadata documents: enter a client ID");
});
