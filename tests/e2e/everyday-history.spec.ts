import { expect, test } from "@playwright/test";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { signedIn } from "./support";

const SHOTS = "docs/screenshots";

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;
let serverId = "";
let collectionId = "";
let monitorId = "";
/** The two runs a person started: the first fails (a typo in its variable), the second passes. */
const mine: { failed: string; passed: string } = { failed: "", passed: "" };

const echoStep = () => ({ serverId, method: "tools/call", name: "echo", arguments: { message: "{{word}}" }, assert: [{ kind: "json", path: "/content/0/text", equals: "Echo: hello" }] });
const finishedRuns = async (id: string) => ((await owner.api("GET", `/api/v1/monitors/${id}/runs`)).body.items as { status: string }[]).filter((r) => r.status !== "running");

async function startRun(variables: Record<string, unknown>): Promise<{ id: string; status: string }> {
  const id = (await owner.api("POST", `/api/v1/collections/${collectionId}/runs`, { variables })).body.run.id as string;
  let run = { id, status: "running" };
  await waitFor(async () => (run = (await owner.api("GET", `/api/v1/runs/${id}`)).body.run).status !== "running", 20_000);
  return run;
}

test.beforeAll(async () => {
  // The scheduler looks for due monitors often, so a 5 s monitor's ticks are not late by a poll.
  [sb, everything] = await Promise.all([startConsole({ env: { SWITCHBOARD_MONITOR_POLL_MS: "200" } }), startEverything("streamableHttp")]);
  owner = await setupOwner(sb.url);
  serverId = (await owner.api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 60_000 })).body.server.id;
  const byHand = await owner.api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "by hand" } });
  expect(byHand.body.call.status).toBe("ok");
  const created = await owner.api("POST", "/api/v1/collections", { name: "Smoke", steps: [echoStep()], variables: { word: "hello" } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  collectionId = created.body.collection.id;
  expect((await owner.api("POST", "/api/v1/environments", { name: "staging", values: { word: "hello" } })).status).toBe(201);
  const monitor = await owner.api("POST", "/api/v1/monitors", { collectionId, name: "Smoke every 5 s", schedule: { everySeconds: 5 } });
  expect(monitor.status, JSON.stringify(monitor.body)).toBe(201);
  monitorId = monitor.body.monitor.id;
  mine.failed = (await startRun({ word: "helo" })).id;
  mine.passed = (await startRun({})).id;
  // The monitor has run a few times by now: the lists below would be full of it.
  await waitFor(async () => (await finishedRuns(monitorId)).length >= 3, 40_000);
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

test("History shows people's work; the monitors' calls are one click away, in the URL", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner);
  await page.goto(`${sb.url}/history`);
  const rows = page.getByTestId("history-row");
  // The call made by hand and the two runs' steps; none of the monitor's.
  await expect(rows).toHaveCount(3);
  await expect(rows.getByTestId("history-origin").filter({ hasText: "monitor" })).toHaveCount(0);
  const views = page.getByRole("navigation", { name: "Whose calls" });
  await expect(views.getByRole("link", { name: "People's work" })).toHaveAttribute("aria-current", "true");
  await page.screenshot({ path: `${SHOTS}/history-calm.png` });

  await views.getByRole("link", { name: "Monitors" }).click();
  await expect(page).toHaveURL(/[?&]origin=monitor\b/);
  await expect(views.getByRole("link", { name: "Monitors" })).toHaveAttribute("aria-current", "true");
  await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
  // Every row is a monitor's: none without an origin badge (a person's own call), none of another origin.
  await expect(rows.filter({ hasNot: page.getByTestId("history-origin") })).toHaveCount(0);
  await expect(rows.getByTestId("history-origin").filter({ hasNotText: "monitor" })).toHaveCount(0);
  // The choice is in the URL: opened afresh (shared), it shows the same view.
  await page.goto(page.url());
  await expect(views.getByRole("link", { name: "Monitors" })).toHaveAttribute("aria-current", "true");
  await views.getByRole("link", { name: "People's work" }).click();
  await expect(page).not.toHaveURL(/origin=/);
  await expect(rows).toHaveCount(3);
  await context.close();

  // At 390 px the views stay reachable and the page does not scroll sideways.
  const phone = await signedIn(browser, sb.url, owner, { width: 390 });
  await phone.page.goto(`${sb.url}/history`);
  const link = phone.page.getByRole("navigation", { name: "Whose calls" }).getByRole("link", { name: "Monitors" });
  await expect(link).toBeInViewport();
  const box = (await link.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await phone.context.close();
});

test("a collection's recent runs and Compare list people's runs; Compare puts the earlier run as A", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner);
  await page.goto(`${sb.url}/collections/${collectionId}`);
  const runs = page.getByRole("list", { name: "Runs" }).getByRole("listitem");
  await expect(runs).toHaveCount(2);
  await expect(runs.filter({ hasText: "monitor" })).toHaveCount(0);
  const views = page.getByRole("navigation", { name: "Whose runs" });
  await views.getByRole("link", { name: "Monitors" }).click();
  await expect(page).toHaveURL(/[?&]runs=monitor\b/);
  await expect.poll(() => runs.count()).toBeGreaterThanOrEqual(3);
  expect((await runs.allTextContents()).every((text) => text.includes("monitor"))).toBe(true);

  // The newer run's page: Compare offers the other run people started, and it is A (it ran first).
  await page.goto(`${sb.url}/runs/${mine.passed}`);
  const compare = page.getByLabel("Compare with…");
  await expect(compare.locator("option")).toHaveCount(2);
  await compare.selectOption(mine.failed);
  const comparison = page.getByRole("region", { name: "Run comparison" });
  await expect(comparison.getByTestId("compare-a")).toHaveText("failed");
  await expect(comparison.getByTestId("compare-b")).toHaveText("passed");
  await expect(comparison.getByTestId("compare-b-heading")).toContainText("(this run)");
  await expect(comparison.getByTestId("compare-step")).toContainText("failed → passed");
  // From the older run's page the order is the same.
  await page.goto(`${sb.url}/runs/${mine.failed}`);
  await page.getByLabel("Compare with…").selectOption(mine.passed);
  await expect(comparison.getByTestId("compare-a")).toHaveText("failed");
  await expect(comparison.getByTestId("compare-a-heading")).toContainText("(this run)");
  await context.close();
});

test("the collection page remembers the environment and stop-on-failure, so the next run has them", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner);
  await page.goto(`${sb.url}/collections/${collectionId}`);
  const panel = page.getByRole("region", { name: "Run" });
  await panel.getByLabel("Environment").selectOption("staging");
  await panel.getByLabel("Stop on first failure").uncheck();
  await page.reload();
  await expect(panel.getByLabel("Environment")).toHaveValue("staging");
  await expect(panel.getByLabel("Stop on first failure")).not.toBeChecked();
  await panel.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\/[\w-]+$/);
  await expect(page.getByTestId("run-summary")).toContainText("environment staging · runs every step");
  // Another collection keeps its own (default) choices.
  const other = (await owner.api("POST", "/api/v1/collections", { name: "Other", steps: [echoStep()] })).body.collection.id;
  await page.goto(`${sb.url}/collections/${other}`);
  await expect(panel.getByLabel("Environment")).toHaveValue("");
  await expect(panel.getByLabel("Stop on first failure")).toBeChecked();
  await context.close();
});

test("a monitor keeps its last settled state while a run is in progress; hours without runs are grey 'no data'", async ({ browser }) => {
  // A run that takes 30 s: the monitor is "running" most of the time from here on.
  const slow = await owner.api("PATCH", `/api/v1/collections/${collectionId}`, {
    steps: [echoStep(), { serverId, method: "tools/call", name: "trigger-long-running-operation", arguments: { duration: 30, steps: 3 } }],
  });
  expect(slow.status, JSON.stringify(slow.body)).toBe(200);
  await waitFor(async () => (await owner.api("GET", `/api/v1/monitors/${monitorId}`)).body.monitor.lastRun?.status === "running", 20_000);
  const { context, page } = await signedIn(browser, sb.url, owner);
  await page.goto(`${sb.url}/monitors`);
  const row = page.getByTestId("monitor-row").filter({ hasText: "Smoke every 5 s" });
  await expect(row.getByTestId("run-status")).toHaveText("running", { timeout: 15_000 });
  await expect(row.getByTestId("monitor-state")).toHaveText("passing");

  // The monitor was created minutes ago: of the day's 24 hours, only the last has runs.
  await page.goto(`${sb.url}/monitors/${monitorId}`);
  const buckets = page.getByTestId("uptime-bucket");
  await expect(buckets).toHaveCount(24);
  await expect(buckets.last()).toHaveAttribute("data-state", "up");
  expect(await page.locator('[data-testid="uptime-bucket"][data-state="no-data"]').count()).toBeGreaterThanOrEqual(22);
  const noData = await page.locator('[data-testid="uptime-bucket"][data-state="no-data"]').first().evaluate((el) => getComputedStyle(el).backgroundColor);
  const up = await buckets.last().evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(noData).not.toBe(up);
  const legend = page.getByTestId("uptime-legend");
  await expect(legend.getByRole("listitem")).toHaveText(["up", "failing", "slow", "no data"]);
  await context.close();

  const phone = await signedIn(browser, sb.url, owner, { width: 390 });
  await phone.page.goto(`${sb.url}/monitors/${monitorId}`);
  const phoneLegend = phone.page.getByTestId("uptime-legend");
  await expect(phoneLegend).toBeVisible();
  const box = (await phoneLegend.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await phone.context.close();
  await owner.api("PATCH", `/api/v1/monitors/${monitorId}`, { enabled: false });
});
