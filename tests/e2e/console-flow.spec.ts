import { expect, test } from "@playwright/test";
import { startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

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

test("set-up, add a server, call tools, restart, history, permalink, run again", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.setup(OWNER);
  await expect(page.getByText(/no servers/i).first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/empty-servers.png` });

  await ui.addServer("everything", everything.url);
  await expect(page.getByRole("tab", { name: "Tools" })).toBeVisible();

  await ui.openTool("echo");
  await page.getByLabel("message", { exact: false }).first().fill("hello from the browser");
  await ui.runTool();
  await expect(page.getByTestId("call-status").first()).toHaveText(/ok/);
  await expect(ui.result()).toContainText("hello from the browser");
  await page.screenshot({ path: `${SHOTS}/tool-call.png` });

  await ui.openTool("get-tiny-image");
  await ui.runTool();
  const image = ui.result().locator("img").first();
  await expect(image).toBeVisible();
  expect(await image.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await page.screenshot({ path: `${SHOTS}/image-result.png` });

  await page.getByRole("tab", { name: "Resources" }).click();
  await page.screenshot({ path: `${SHOTS}/resources.png` });

  // The console restarts; the browser session and the history survive.
  await sb.stop();
  await sb.restart();
  await page.goto(`${sb.url}/history`);
  if (page.url().includes("sign-in")) await ui.signIn(OWNER);
  await page.goto(`${sb.url}/history`);
  const rows = page.getByTestId("history-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("get-tiny-image");
  await expect(rows.nth(1)).toContainText("echo");
  await page.screenshot({ path: `${SHOTS}/history.png` });

  await rows.nth(1).click();
  await expect(page).toHaveURL(/\/calls\/[\w-]+$/);
  const permalink = page.url();
  await expect(page.getByText("hello from the browser").first()).toBeVisible();
  await page.getByRole("button", { name: "Run again" }).click();
  await expect(page.getByRole("region", { name: "Comparison" })).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: `${SHOTS}/run-again.png` });

  // The permalink opens in a fresh browser context for the same user.
  const other = await page.context().browser()!.newContext();
  const otherPage = await other.newPage();
  await new ConsolePage(otherPage, sb.url).signIn(OWNER);
  await otherPage.goto(permalink);
  await expect(otherPage.getByText("hello from the browser").first()).toBeVisible();
  await other.close();

  await page.goto(`${sb.url}/history`);
  await expect(page.getByTestId("history-row")).toHaveCount(3);
});
