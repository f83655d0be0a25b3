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

test("arguments that fail the schema can be sent anyway, and the call says so", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.setup(OWNER);
  await ui.addServer("everything", everything.url);
  await ui.openTool("get-sum");
  // Both numbers are required: the form refuses, and offers to send anyway.
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const refused = page.getByRole("alert").filter({ hasText: "Fix the arguments first" });
  await expect(refused).toBeVisible();
  await expect(page.getByTestId("call-status")).toHaveCount(0);
  await refused.getByRole("button", { name: "Send anyway" }).click();
  await expect(page.getByTestId("call-status").first()).toHaveText(/ok|error/, { timeout: 30_000 });

  await page.goto(`${sb.url}/history`);
  const row = page.getByTestId("history-row").first();
  await expect(row.getByTestId("history-sent-invalid")).toHaveText("invalid args");
  await row.click();
  await expect(page.getByTestId("call-sent-invalid")).toContainText("sent anyway");
});
