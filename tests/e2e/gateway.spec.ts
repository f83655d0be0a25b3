import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { expect, test } from "@playwright/test";
import { startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };
const SHOTS = "docs/screenshots";

let sb: ConsoleHandle;
let everything: RunningServer;

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

test("an admin offers a server through the gateway, a host connects with a gateway token, its calls and connection show up", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.setup(OWNER);

  await page.goto(`${sb.url}/settings/tokens`);
  await page.getByLabel("Token name").fill("cursor");
  await page.getByLabel("Opens").selectOption("gateway");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("token-secret").textContent())!.trim();
  await expect(page.getByText("gateway only")).toBeVisible();

  await page.goto(`${sb.url}/servers`);
  await ui.addServer("everything", everything.url);
  await page.getByRole("tab", { name: "Gateway" }).click();
  await expect(page.getByTestId("gateway-status")).toHaveText("not offered");
  await page.getByLabel("Offer this server at its gateway endpoint").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("gateway-status")).toHaveText("offered");
  const url = (await page.getByTestId("gateway-url").textContent())!.trim();
  expect(url).toBe(`${sb.url}/mcp/default/everything`);
  await expect(page.getByTestId("gateway-aggregate-url")).toHaveText(`${sb.url}/mcp/default`);
  await page.getByRole("tab", { name: "Cursor" }).click();
  await expect(page.getByTestId("host-config")).toContainText(`"url": "${url}"`);

  const client = new Client({ name: "e2e-host", version: "1.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  await client.callTool({ name: "echo", arguments: { message: "from another host" } });

  const row = page.getByTestId("connected-client").filter({ hasText: "e2e-host" });
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row).toContainText("Ada Owner");
  await page.screenshot({ path: `${SHOTS}/gateway-tab.png`, fullPage: true });
  await row.getByRole("button", { name: "Disconnect e2e-host" }).click();
  await expect(row).toHaveCount(0);
  await expect(client.listTools()).rejects.toThrow();

  await ui.nav("History");
  const call = page.getByTestId("history-row").filter({ hasText: "echo" }).first();
  await expect(call.getByTestId("history-origin")).toHaveText("gateway");
  await call.click();
  await expect(page.getByTestId("call-client")).toHaveText("e2e-host 1.0");
});
