import { expect, test } from "@playwright/test";
import { startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, startFixture, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };
const SHOTS = "docs/screenshots";

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;
let progress: RunningServer;

test.beforeAll(async () => {
  [sb, everything, progress] = await Promise.all([startConsole(), startEverything("streamableHttp"), startFixture("progress-server.ts")]);
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop(), progress?.stop()]);
});

test("a progress bar with the server's messages, then Cancel", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.setup(OWNER);
  await ui.addServer("reports", progress.url);
  await ui.openTool("slow-report");
  await page.getByLabel("steps", { exact: false }).first().fill("20");
  await page.getByLabel("stepMs", { exact: false }).first().fill("400");
  await page.getByRole("button", { name: "Run", exact: true }).click();

  const bar = page.getByRole("progressbar", { name: "Progress" });
  await expect(bar).toBeVisible();
  await expect(page.getByTestId("progress-message")).toContainText(/Step \d+ of 20: compiling section/);
  await expect(bar).toHaveAttribute("aria-valuenow", /\d+/);
  await page.screenshot({ path: `${SHOTS}/progress.png` });

  await page.getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(page.getByTestId("call-status").first()).toHaveText(/cancelled/);
  await expect(bar).toHaveCount(0);
});

test("a task runs on while the page is gone; its permalink shows status and result", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(OWNER);
  await ui.addServer("everything", everything.url);
  await ui.openTool("simulate-research-query");
  await expect(page.getByText(/always runs as a task/)).toBeVisible();
  await page.getByLabel("topic", { exact: false }).first().fill("tidal energy");
  await page.getByRole("button", { name: "Run", exact: true }).click();

  const task = page.getByRole("region", { name: "Task" });
  await expect(task.getByTestId("task-status")).toHaveText(/Working/);
  await expect(task.getByTestId("task-status-message")).toContainText(/\.\.\./);
  await expect(task).toContainText("1000 ms");
  await page.screenshot({ path: `${SHOTS}/task.png` });
  const permalink = await page.getByRole("link", { name: "Open this call's page" }).getAttribute("href");
  expect(permalink).toMatch(/^\/calls\//);

  // Leave: nobody watches the call while the console finishes it.
  await page.goto("about:blank");
  await page.goto(`${sb.url}${permalink}`);
  await expect(page.getByTestId("task-status")).toHaveText(/Completed/, { timeout: 20_000 });
  await expect(page.getByTestId("call-header-status")).toHaveText(/ok/);
  await expect(ui.result()).toContainText("Research Report: tidal energy");
});

test("the server's Tasks view lists the session's task calls, live until completed", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(OWNER);
  await page.goto(`${sb.url}/servers`);
  await page.getByRole("link", { name: "everything", exact: true }).click();
  await ui.openTool("simulate-research-query");
  await page.getByLabel("topic", { exact: false }).first().fill("deep sea vents");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page.getByRole("region", { name: "Task" }).getByTestId("task-status")).toHaveText(/Working/);

  await page.getByRole("tablist", { name: "Server views" }).getByRole("tab", { name: "Tasks" }).click();
  const table = page.getByRole("table", { name: "Task calls" });
  const newest = table.getByRole("row").nth(1);
  await expect(newest).toContainText("simulate-research-query");
  await expect(newest.getByTestId("task-row-status")).toHaveText(/Working/);
  await expect(newest).toContainText("1000 ms");
  await expect(newest.getByRole("button", { name: "Cancel task" })).toBeVisible();
  await expect(newest.getByRole("link", { name: "simulate-research-query" })).toHaveAttribute("href", /^\/calls\//);
  await page.screenshot({ path: `${SHOTS}/tasks-list.png` });

  // No reload: task events (and the poll while one runs) bring the end state in.
  await expect(newest.getByTestId("task-row-status")).toHaveText(/Completed/, { timeout: 20_000 });
  await expect(newest.getByTestId("task-row-call-status")).toHaveText("ok");
  await expect(newest.getByRole("button", { name: "Cancel task" })).toHaveCount(0);
  // The earlier task call of this session is listed too, completed.
  await expect(table.getByRole("row")).toHaveCount(3);
});

test("the edit form sets and clears the server's hard maximum", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(OWNER);
  await page.goto(`${sb.url}/servers`);
  await page.getByRole("link", { name: "reports", exact: true }).click();
  const hardMax = () => page.getByRole("dialog").getByLabel("Hard maximum (ms)");
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(hardMax()).toHaveValue("");
  await hardMax().fill("45000");
  await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(hardMax()).toHaveValue("45000");
  await hardMax().fill("");
  await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(hardMax()).toHaveValue("");
});
