import { expect, test } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { expectAccessible, signedIn } from "./support";

// Load tests in the browser: start one, watch its figures change live, see it complete with its chart; compare two.
test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;
let serverId = "";

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
  owner = await setupOwner(sb.url);
  serverId = (await owner.api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 20_000 })).body.server.id;
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

test("a load test started in the browser shows its figures live, then completes with its chart", async ({ browser }) => {
  const { page, close } = await signedIn(browser, sb.url, owner, { width: 1366, height: 900 });
  await page.goto(`${sb.url}/load-tests`);
  await expect(page.getByRole("link", { name: "Load tests" })).toHaveAttribute("aria-current", "page");
  await page.getByRole("button", { name: "New load test" }).click();
  const dialog = page.getByRole("dialog", { name: "New load test" });
  await dialog.getByLabel("Server").selectOption(serverId);
  await dialog.getByLabel("Tool").fill("trigger-long-running-operation");
  await dialog.getByLabel("Arguments (JSON)").fill('{"duration": 0.1, "steps": 1}');
  await dialog.getByLabel("Users").fill("4");
  await dialog.getByLabel("Duration (s)").fill("6");
  await dialog.getByRole("button", { name: "Start" }).click();
  await expect(page).toHaveURL(/\/load-tests\/(?!_)[\w-]+$/);
  await expect(page.getByTestId("load-test-status")).toHaveText("running");

  // Live: the calls figure changes while the status still says running (the live channel's load_test events).
  const calls = page.getByTestId("figure-calls");
  await expect(calls).not.toHaveText("0", { timeout: 10_000 });
  const first = await calls.textContent();
  await expect(calls).not.toHaveText(first!, { timeout: 10_000 });
  await expect(page.getByTestId("load-test-status")).toHaveText("running");

  await expect(page.getByTestId("load-test-status")).toHaveText("completed", { timeout: 30_000 });
  await expect(page.getByTestId("figure-p95")).toHaveText(/\d+ ms/);
  await expect(page.getByTestId("load-test-chart").locator(".recharts-line")).toHaveCount(2);
  await expect(page.getByRole("table", { name: "Steps" }).getByRole("row")).toHaveCount(2);
  await expectAccessible(page);
  await close();
});

test("compare with another test side by side; the pages work at 390 px", async ({ browser }) => {
  const started = await owner.api("POST", "/api/v1/load-tests", { call: { serverId, tool: "echo", arguments: { message: "hi" } }, users: 2, count: 100 });
  expect(started.status).toBe(202);
  await expect.poll(async () => (await owner.api("GET", `/api/v1/load-tests/${started.body.loadTest.id}`)).body.status).toBe("completed");
  const { page, close } = await signedIn(browser, sb.url, owner, { width: 390, height: 844 });
  await page.goto(`${sb.url}/load-tests/${started.body.loadTest.id}`);
  await expect(page.getByTestId("load-test-status")).toHaveText("completed");
  await expect(page.getByTestId("figure-calls")).toHaveText("100");
  await page.getByLabel("Compare with…").selectOption({ index: 1 });
  const figures = page.getByRole("region", { name: "Figures" });
  await expect(figures.getByRole("columnheader")).toHaveCount(3);
  await expect(figures.getByRole("row", { name: /^Calls / })).toContainText("100");
  await expect(page.getByTestId("load-test-chart").locator(".recharts-line")).toHaveCount(4);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.goto(`${sb.url}/load-tests`);
  await expect(page.getByRole("table", { name: "Load tests" }).getByRole("link")).toHaveCount(2);
  await close();
});
