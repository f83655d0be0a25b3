import { expect, test } from "@playwright/test";
import { startConsole, type ConsoleHandle } from "../support/console";
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

test("archive keeps history readable, restore and purge ask an admin, the audit log shows it all", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.setup(OWNER);
  await ui.addServer("everything", everything.url);
  await ui.openTool("echo");
  await page.getByLabel("message", { exact: false }).first().fill("kept after archive");
  await ui.runTool();
  await expect(ui.result()).toContainText("kept after archive");
  const serverUrl = page.url();

  // Archive: the server leaves the list and shows under "Archived servers" with its call count.
  await page.getByRole("button", { name: "Archive", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Archive server" }).click();
  await expect(page).toHaveURL(/\/servers$/);
  const archived = page.getByRole("region", { name: "Archived servers" });
  await expect(archived.getByRole("row", { name: /everything/ })).toContainText("1");
  await expect(page.getByRole("navigation", { name: "Servers" }).getByText("everything")).toHaveCount(0);

  // History and the permalink still render, marked "server archived"; Run again is off.
  await ui.nav("History");
  const row = page.getByTestId("history-row").first();
  await expect(row.getByTestId("history-archived")).toHaveText("archived");
  await row.click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("server archived");
  await expect(page.getByRole("button", { name: "Run again" })).toBeDisabled();
  await expect(ui.result()).toContainText("kept after archive");

  // The server page says it is archived and offers Restore.
  await page.goto(serverUrl);
  await expect(page.getByRole("status").filter({ hasText: "Server archived" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^(Connect|Reconnect)$/ })).toHaveCount(0);
  await page.getByRole("button", { name: "Restore" }).click();
  // Restored, it can be used again (the page's tool list may already have opened a session: Reconnect).
  await expect(page.getByRole("button", { name: /^(Connect|Reconnect)$/ })).toBeVisible();

  // Archive again and purge: the confirmation says how many calls go.
  await page.getByRole("button", { name: "Archive", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Archive server" }).click();
  await expect(page).toHaveURL(/\/servers$/);
  await archived.getByRole("button", { name: "Purge everything" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("This deletes 1 call");
  await dialog.getByRole("button", { name: "Delete 1 call" }).click();
  await expect(archived).toHaveCount(0);

  // The audit log, from the settings navigation, with a filter and the export link.
  await ui.nav("Settings");
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Audit log" }).click();
  const events = page.getByTestId("audit-row");
  await expect(events.first()).toContainText("server.purged");
  await expect(page.getByRole("list", { name: "Audit events" })).toContainText("server.restored");
  await page.getByLabel("Action").fill("server.archived");
  await page.getByLabel("Action").press("Enter");
  await expect(page).toHaveURL(/action=server\.archived/);
  await expect(events).toHaveCount(2);
  await expect(page.getByRole("link", { name: "Export NDJSON" })).toHaveAttribute("href", /\/api\/v1\/audit\/export\?action=server\.archived/);
});
