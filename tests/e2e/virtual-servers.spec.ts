import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { expect, test } from "@playwright/test";
import { apiClient, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };

let sb: ConsoleHandle;
let everything: RunningServer;

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

test("an admin composes a virtual server in Settings → Gateway, and a host sees its renamed tool", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.setup(OWNER);
  await page.goto(`${sb.url}/servers`);
  await ui.addServer("everything", everything.url);

  await page.goto(`${sb.url}/settings/gateway`);
  await expect(page.getByText("No virtual servers yet")).toBeVisible();
  await page.getByRole("button", { name: "New virtual server" }).click();
  await page.getByLabel("Name", { exact: true }).fill("support-kit");
  await page.getByRole("button", { name: "Add a tool" }).click();
  await page.getByLabel("Tool 1", { exact: true }).selectOption("echo");
  await page.getByLabel("Served as 1", { exact: true }).fill("say");
  await page.getByLabel("Description 1", { exact: true }).fill("Says it back");
  await page.getByRole("button", { name: "Create" }).click();
  const row = page.getByTestId("virtual-server").filter({ hasText: "support-kit" });
  await expect(row).toContainText("/mcp/default/support-kit");
  await expect(row).toContainText("say");
  await expect(row).toContainText("everything/echo");

  const owner = apiClient(sb.url, undefined);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const token = (await owner("POST", "/api/v1/tokens", { name: "host", scopes: ["gateway"] }, { cookie })).body.secret as string;
  const client = new Client({ name: "e2e-virtual", version: "1.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${sb.url}/mcp/default/support-kit`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  const tools = (await client.listTools()).tools;
  expect(tools.map((t) => [t.name, t.description])).toEqual([["say", "Says it back"]]);
  await client.close();
});
