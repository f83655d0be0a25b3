import { expect, test, type Page } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startFixture, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

const OWNER = { email: "ada@example.com", password: "correct horse battery" };

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let hostile: RunningServer;
let ids: Record<string, string>;

test.beforeAll(async () => {
  [sb, hostile] = await Promise.all([startConsole(), startFixture("hostile-server.ts")]);
  const { api } = await setupOwner(sb.url);
  ids = {};
  for (const mode of ["xss", "huge", "silent", "malformed"]) {
    const res = await api("POST", "/api/v1/servers", { name: mode, url: `${hostile.baseUrl}/${mode}`, timeoutMs: 20_000 });
    ids[mode] = res.body.server.id;
  }
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), hostile?.stop()]);
});

/** Fails the test if any dialog opens or any script from a payload runs. */
function guard(page: Page) {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return dialogs;
}

test("script and javascript: payloads from a server stay inert", async ({ page }) => {
  const dialogs = guard(page);
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(OWNER);
  await page.goto(`${sb.url}/servers/${ids.xss}`);
  await page.getByRole("tab", { name: "Tools" }).click();
  const toolButton = page.getByRole("list", { name: "tools" }).getByRole("button").filter({ hasText: "xss" }).first();
  await toolButton.click();
  // The payload is shown as text…
  await expect(page.getByText("<script>alert(1)</script>", { exact: false }).first()).toBeVisible();
  await ui.runTool();
  await expect(ui.result()).toContainText("<img src=x onerror=alert(1)>");
  await page.screenshot({ path: "docs/screenshots/hostile-xss.png" });

  // …and never becomes markup: no injected elements, no javascript: links, no dialogs.
  const injected = await page.evaluate(() => ({
    scripts: [...document.querySelectorAll("main script")].length,
    onerror: [...document.querySelectorAll("[onerror]")].length,
    jsLinks: [...document.querySelectorAll("a[href]")].filter((a) => a.getAttribute("href")!.trim().toLowerCase().startsWith("javascript:")).length,
    xImages: [...document.querySelectorAll("img")].filter((img) => img.getAttribute("src") === "x").length,
  }));
  expect(injected).toEqual({ scripts: 0, onerror: 0, jsLinks: 0, xImages: 0 });
  expect(dialogs).toEqual([]);

  // The same holds on the call's permalink.
  await page.getByRole("link", { name: "Permalink" }).first().click();
  await expect(page.getByText("<img src=x onerror=alert(1)>", { exact: false }).first()).toBeVisible();
  expect(await page.locator("[onerror], a[href^='javascript:']").count()).toBe(0);
  expect(dialogs).toEqual([]);
});

test("a 10 MB result is recorded and the page stays usable", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(OWNER);
  await page.goto(`${sb.url}/servers/${ids.huge}`);
  await ui.openTool("huge");
  await ui.runTool();
  await expect(page.getByTestId("call-status").first()).toHaveText("ok");
  await expect(ui.result()).toContainText(/MB|KB|\d/);
  // Still responsive: the history page opens and lists the call.
  await page.getByRole("link", { name: "History" }).click();
  await expect(page.getByTestId("history-row").first()).toContainText("huge");
});

test("a server that never answers ends in a recorded timeout; malformed JSON in an error", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(OWNER);
  await page.goto(`${sb.url}/servers/${ids.silent}`);
  await ui.openTool("echo");
  await page.getByLabel("message", { exact: true }).fill("anyone there?");
  await page.getByLabel("Timeout (ms)").fill("1000");
  await ui.runTool();
  await expect(page.getByTestId("call-status").first()).toHaveText("timeout");

  await page.goto(`${sb.url}/servers/${ids.malformed}`);
  await ui.openTool("echo");
  await page.getByLabel("message", { exact: true }).fill("x");
  await ui.runTool();
  await expect(page.getByTestId("call-status").first()).toHaveText("error");
  await expect(page.getByRole("alert").first()).toContainText(/JSON|parse/i);

  await page.goto(`${sb.url}/history?status=timeout`);
  await expect(page.getByTestId("history-row")).toHaveCount(1);
});
