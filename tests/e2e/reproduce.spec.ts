import { expect, test } from "@playwright/test";
import { startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

test("copy as, edit and run again, compare two calls", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.setup(OWNER);
  await ui.addServer("everything", everything.url);
  await ui.openTool("echo");
  await page.getByLabel("message", { exact: false }).first().fill("it's the original");
  await ui.runTool();
  await expect(ui.result()).toContainText("it's the original");

  await page.goto(`${sb.url}/history`);
  await page.getByTestId("history-row").first().getByRole("link").click();
  await expect(page).toHaveURL(/\/calls\/[\w-]+$/);
  const sourceId = page.url().split("/calls/")[1]!;

  // Copy as: three formats, each a snippet made from this call.
  await page.getByRole("button", { name: "Copy as…" }).click();
  const menu = page.getByRole("menu", { name: "Copy as" });
  await expect(menu.getByRole("menuitem")).toHaveText(["curl", "TypeScript (MCP SDK)", "mcpServers entry"]);
  const snippet = page.getByTestId("snippet");
  const expectations: [string, RegExp[]][] = [
    ["curl", [/\$SWITCHBOARD_TOKEN/, /\/api\/v1\/servers\/[\w-]+\/tools\/call/, /it'\\''s the original/]],
    ["TypeScript (MCP SDK)", [/@modelcontextprotocol\/client/, /StreamableHTTPClientTransport/, /client\.callTool/, /it's the original/]],
    ["mcpServers entry", [/"mcpServers"/, new RegExp(`"url": "${everything.url}"`)]],
  ];
  for (const [label, patterns] of expectations) {
    if (!(await menu.isVisible())) await page.getByRole("button", { name: "Copy as…" }).click();
    await menu.getByRole("menuitem", { name: label }).click();
    for (const pattern of patterns) await expect(snippet).toContainText(pattern);
    await expect(page.getByRole("button", { name: "Copy to clipboard" })).toBeVisible();
    await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
    await expect(snippet).toBeHidden();
  }

  // Edit and run: the runner opens with the call's arguments; the new call points back at it.
  await page.getByRole("button", { name: "Edit and run…" }).click();
  await expect(page).toHaveURL(new RegExp(`/servers/[\\w-]+\\?tool=echo&from=${sourceId}$`));
  const message = page.getByLabel("message", { exact: false }).first();
  await expect(message).toHaveValue("it's the original");
  await expect(page.getByText("Arguments from an earlier call")).toBeVisible();
  await message.fill("it's edited");
  await ui.runTool();
  await expect(ui.result()).toContainText("it's edited");
  await ui.result().getByRole("link", { name: "Permalink" }).click();
  await expect(page).toHaveURL(/\/calls\/[\w-]+$/);
  const rerunId = page.url().split("/calls/")[1]!;
  expect(rerunId).not.toBe(sourceId);
  await expect(page.getByRole("link", { name: "an earlier call" })).toHaveAttribute("href", `/calls/${sourceId}`);

  // Compare: tick both in the history; the comparison lives in the URL and survives a reload.
  await page.goto(`${sb.url}/history`);
  const rows = page.getByTestId("history-row");
  await expect(rows).toHaveCount(2);
  await rows.nth(0).getByRole("checkbox").check();
  await rows.nth(1).getByRole("checkbox").check();
  await page.getByRole("link", { name: "Compare", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/history/compare\\?a=${rerunId}&b=${sourceId}$`));
  for (const reload of [false, true]) {
    if (reload) await page.reload();
    await expect(page.getByRole("region", { name: "Call A" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Call B" })).toBeVisible();
    // The earlier call is A whatever order the URL names them in, so the diff reads forward in time,
    // and the headline says what differs.
    await expect(page.getByTestId("params-a")).toContainText("it's the original");
    await expect(page.getByTestId("params-b")).toContainText("it's edited");
    await expect(page.getByTestId("compare-headline")).toHaveText(`The same echo, different arguments — message: "it's the original" → "it's edited". A ran first.`);
    const argDiff = page.getByRole("region", { name: "Argument differences" });
    await expect(argDiff.locator('[data-change="added"]')).toContainText(["it's edited"]);
    await expect(argDiff.locator('[data-change="removed"]')).toContainText(["it's the original"]);
    await expect(page.getByRole("region", { name: "Results" }).getByTestId("result-view")).toHaveCount(2);
  }
});
