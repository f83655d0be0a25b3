import { expect, test, type Page } from "@playwright/test";
import { freePort } from "../support/servers";
import { startConsole, type ConsoleHandle } from "../support/console";
import { ConsolePage } from "../pages/console-page";

// A newcomer on an empty console: one click on the demo offer, then tools, a UI card and an MCP
// App without adding anything else; and their theme following them to a fresh browser.
const OWNER = { name: "Nina Newcomer", email: "nina@example.com", password: "correct horse battery" };
const SHOTS = "docs/screenshots";

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;

test.beforeAll(async () => {
  sb = await startConsole({ env: { SWITCHBOARD_SANDBOX_PORT: String(await freePort()) } });
});
test.afterAll(async () => {
  await sb?.stop();
});

/** The app's own document: the inner iframe inside our proxy page. */
const appFrame = (page: Page, tool: string) => page.frameLocator(`iframe[title="App: ${tool}"]`).frameLocator('iframe[title="MCP App"]');
const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));

test("an empty console offers the demo server: tools, a UI card and an MCP App in a few clicks", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.setup(OWNER);
  const offer = page.getByRole("button", { name: "Try the demo server" });
  await expect(offer).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/demo-offer.png` });
  await offer.click();

  await expect(page).toHaveURL(/\/servers\/(?!new)[\w-]+$/);
  await expect(page.getByRole("heading", { name: "demo", level: 1 })).toBeVisible();
  await page.getByRole("tab", { name: "Tools" }).click();
  for (const tool of ["hello", "roll-dice", "dice-app", "add"]) await expect(page.getByRole("button", { name: new RegExp(`^${tool}\\b`) }).first()).toBeVisible();

  await ui.openTool("roll-dice");
  await ui.runTool();
  await expect(page.getByTestId("call-status").first()).toHaveText(/ok/);
  const card = page.getByRole("article", { name: /^Card: 2d6: \d+$/ });
  await expect(card).toBeVisible();
  await expect(card.getByRole("button", { name: "Roll again" })).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/demo-card.png` });

  await ui.openTool("dice-app");
  await ui.runTool();
  const app = appFrame(page, "dice-app");
  await expect(app.getByRole("heading", { name: "Dice app" })).toBeVisible();
  await expect(app.getByText(/^Total: \d+$/)).toBeVisible();
  await expect(app.getByText(/^Theme: (light|dark)$/)).toBeVisible();
  await app.getByRole("button", { name: "Roll again from the app" }).click();
  await expect(app.getByRole("heading", { name: "Rolled from the app" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/demo-app.png` });

  // Every call, the app's own included, is in history like any other server's.
  await ui.nav("History");
  const rows = page.getByTestId("history-row");
  await expect(rows.filter({ hasText: "dice-app" }).first()).toBeVisible();
  await expect(rows.filter({ hasText: "roll-dice" }).first()).toBeVisible();
});

test("the theme follows the person: dark chosen in one browser, a fresh browser signs in dark without toggling", async ({ browser }) => {
  const first = await browser.newContext();
  const page = await first.newPage();
  await new ConsolePage(page, sb.url).signIn(OWNER);
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/v1/me") && r.request().method() === "PATCH");
  await page.getByRole("group", { name: "Theme" }).first().getByTitle("Dark theme").click();
  expect((await saved).status()).toBe(200);
  await expect.poll(() => isDark(page)).toBe(true);
  await first.close();

  // A fresh browser whose system prefers light; every page load notes the theme at its first paint.
  const fresh = await browser.newContext({ colorScheme: "light" });
  await fresh.addInitScript(() => {
    document.addEventListener("DOMContentLoaded", () => {
      const seen = JSON.parse(sessionStorage.getItem("themes-at-load") ?? "[]") as string[];
      sessionStorage.setItem("themes-at-load", JSON.stringify([...seen, `${location.pathname}:${document.documentElement.classList.contains("dark") ? "dark" : "light"}`]));
    });
  });
  const next = await fresh.newPage();
  await new ConsolePage(next, sb.url).signIn(OWNER);
  expect(await isDark(next)).toBe(true);
  await expect(next.getByRole("group", { name: "Theme" }).first().getByRole("radio", { name: "Dark" })).toBeChecked();

  // This browser's stored choice is stale (light); a load still paints dark from the start.
  await next.evaluate(() => localStorage.setItem("theme", "light"));
  await next.reload();
  await expect(next.getByRole("group", { name: "Theme" }).first().getByRole("radio", { name: "Dark" })).toBeChecked();
  const loads = JSON.parse((await next.evaluate(() => sessionStorage.getItem("themes-at-load"))) ?? "[]") as string[];
  expect(loads.at(-1)).toBe("/servers:dark");
  await fresh.close();
});
