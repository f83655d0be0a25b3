import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";
import { LivePage } from "../pages/live-page";

const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };
const SHOTS = "docs/screenshots";

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

test("log panel with level and search, traffic view with pairs, filter and export, ping", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  const live = new LivePage(page);
  await ui.setup(OWNER);
  await ui.addServer("everything", everything.url);

  await live.ping();

  // Ask for every level, start the server's simulated logging, watch lines arrive live.
  await live.openView("Logs");
  await live.setServerLogLevel("debug");
  await live.openView("Capabilities");
  await ui.openTool("toggle-simulated-logging");
  await ui.runTool();
  await live.openView("Logs");
  await expect(live.logLines().first()).toBeVisible({ timeout: 20_000 });
  await expect(live.logLines().nth(1)).toBeVisible({ timeout: 20_000 });
  await page.getByRole("textbox", { name: "Search logs" }).fill("message");
  await expect(live.logLines().first()).toContainText(/message/i);
  await page.getByRole("textbox", { name: "Search logs" }).fill("no-such-log-text");
  await expect(page.getByText("Nothing matches the filter.")).toBeVisible();
  await page.getByRole("textbox", { name: "Search logs" }).fill("");
  await page.getByRole("combobox", { name: "Show level" }).selectOption("emergency");
  await expect(async () => {
    const texts = await live.logLines().allTextContents();
    expect(texts.every((t) => /emergency/i.test(t))).toBe(true);
  }).toPass();
  await page.getByRole("combobox", { name: "Show level" }).selectOption("");
  await expect(live.logLines().first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/logs.png` });

  // Traffic: the tool call's request and response, paired, with a duration.
  await live.openView("Traffic");
  await expect(live.trafficRows().filter({ hasText: "initialize" }).first()).toBeVisible();
  await page.getByRole("textbox", { name: "Method" }).fill("tools/call");
  await expect(live.trafficRows()).toHaveCount(2);
  const response = live.trafficRows().filter({ has: page.getByTestId("traffic-duration") });
  await expect(response).toHaveAttribute("data-kind", "response");
  await expect(response).toHaveAttribute("data-direction", "in");
  // Newest first: the response, then its request.
  await expect(live.trafficRows().first()).toHaveAttribute("data-kind", "response");
  await live.trafficRows().last().getByRole("button").click();
  await expect(live.trafficRows().last().locator("pre")).toContainText('"name": "toggle-simulated-logging"');
  await page.screenshot({ path: `${SHOTS}/traffic.png` });

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export NDJSON" }).click()]);
  const lines = fs.readFileSync((await download.path())!, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatchObject({ direction: "out", method: "tools/call", message: { params: { name: "toggle-simulated-logging" } } });

  await page.getByRole("combobox", { name: "Direction" }).selectOption("in");
  await expect(live.trafficRows()).toHaveCount(1);
});
