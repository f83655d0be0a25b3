import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startFixture, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

let sb: ConsoleHandle;
let v1: RunningServer;
let v2: RunningServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;

test.beforeAll(async () => {
  [sb, v1, v2] = await Promise.all([startConsole(), startFixture("replay-server.ts", { env: { REPLAY_VERSION: "1" } }), startFixture("replay-server.ts", { env: { REPLAY_VERSION: "2" } })]);
  owner = await setupOwner(sb.url);
  const v1Id = (await owner.api("POST", "/api/v1/servers", { name: "fixture-v1", url: v1.url })).body.server.id;
  expect((await owner.api("POST", "/api/v1/servers", { name: "fixture-v2", url: v2.url })).status).toBe(201);
  for (const [name, args] of [["add", { a: 1, b: 2 }], ["greet", { name: "Ada" }]] as const) {
    expect((await owner.api("POST", `/api/v1/servers/${v1Id}/tools/call`, { name, arguments: args })).body.call.status).toBe("ok");
  }
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), v1?.stop(), v2?.stop()]);
});

async function noSeriousViolations(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

test("history → replay the ticked calls against v2: the changed call shows its difference", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(owner);
  await ui.nav("History");
  const rows = page.getByTestId("history-row");
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) await row.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Replay ticked…" }).click();
  const dialog = page.getByRole("dialog", { name: "Replay against a server" });
  await dialog.getByLabel("Target server").selectOption({ label: "fixture-v2" });
  await dialog.getByRole("button", { name: "Start replay" }).click();

  await expect(page).toHaveURL(/\/replays\/[\w-]+$/);
  await expect(page.getByTestId("replay-header-status")).toHaveText("failed", { timeout: 30_000 });
  await expect(page.getByTestId("replay-summary")).toContainText("1 same, 1 different, 0 errors of 2 calls");
  const greet = page.getByRole("listitem", { name: /greet, different/ });
  await expect(greet.getByRole("table", { name: "Snapshot differences" })).toContainText("/result/content/1");
  await expect(page.getByRole("listitem", { name: /add, same/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "JUnit XML" })).toHaveAttribute("href", /format=junit/);

  // At a phone's width the report and the list read without sideways scrolling, and axe finds nothing serious.
  await page.setViewportSize({ width: 390, height: 844 });
  await noSeriousViolations(page, 390);
  await page.goto(`${sb.url}/replays`);
  await expect(page.getByRole("table", { name: "Replays" })).toContainText("fixture-v2");
  await noSeriousViolations(page, 390);
});
