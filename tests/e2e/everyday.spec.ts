import { expect, test, type Page } from "@playwright/test";
import { apiClient, sessionCookie, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { signedIn } from "./support";

// Theme, phone-width layout, the command palette and keyboard hints, as a daily user meets them.
test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;
let serverId: string;
let callId: string;
let viewerCookie: string;

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
  owner = await setupOwner(sb.url);
  serverId = (await owner.api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 30_000 })).body.server.id;
  expect((await owner.api("POST", `/api/v1/servers/${serverId}/connect`)).status).toBeLessThan(300);
  callId = (await owner.api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "get-sum", arguments: { a: 2, b: 3 } })).body.call.id;
  const invitation = (await owner.api("POST", "/api/v1/invitations", { email: "vera@example.com", role: "viewer" })).body.invitation;
  const token = new URL(invitation.url).pathname.split("/").pop();
  const accepted = await apiClient(sb.url)("POST", "/api/v1/invitations/accept", { token, name: "Vera Viewer", password: "viewer password 123" });
  expect(accepted.status).toBeLessThan(300);
  viewerCookie = await sessionCookie(sb.url, "vera@example.com", "viewer password 123");
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

const palette = (page: Page) => page.getByRole("dialog", { name: "Command palette" });
const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));

/** The answer to the theme switch's save (PATCH /api/v1/me). */
function savedTheme(page: Page) {
  return page.waitForResponse((r) => r.request().method() === "PATCH" && new URL(r.url()).pathname === "/api/v1/me" && r.ok());
}

test("theme: system by default, a choice overrides it, is remembered per person, and is applied before any script of the app runs", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { width: 1280 });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(`${sb.url}/servers`);
  const themes = page.getByRole("group", { name: "Theme" });
  await expect(themes.getByRole("radio", { name: "System" })).toBeChecked();
  await expect.poll(() => isDark(page)).toBe(true);

  // The choice applies at once and is saved in the background: a page load before the save lands
  // would carry the saved (old) theme, so wait for it as a person's next click would.
  await Promise.all([savedTheme(page), themes.getByTitle("Light theme").click()]);
  await expect(themes.getByRole("radio", { name: "Light" })).toBeChecked();
  await expect.poll(() => isDark(page)).toBe(false);
  await page.reload();
  await expect(page.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "Light" })).toBeChecked();
  expect(await isDark(page)).toBe(false);

  // No flash: with every script file of the app removed, the page's own inline script still
  // applies the stored theme, so the first paint has it.
  await Promise.all([savedTheme(page), page.getByRole("group", { name: "Theme" }).getByTitle("Dark theme").click()]);
  await expect.poll(() => isDark(page)).toBe(true);
  await page.emulateMedia({ colorScheme: "light" });
  await page.route(`${sb.url}/servers`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(/<script[^>]*\ssrc="[^"]*"[^>]*><\/script>/g, "");
    await route.fulfill({ response, body: html });
  });
  await page.goto(`${sb.url}/servers`);
  expect(await isDark(page)).toBe(true);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(12, 14, 19)");
  await page.unroute(`${sb.url}/servers`);

  // Per person on a shared browser: another person signing in here gets their own (the default).
  const host = new URL(sb.url).hostname;
  const signInAs = async (cookie: string) => {
    await context.clearCookies();
    await context.addCookies(cookie.split("; ").map((pair) => ({ name: pair.split("=")[0]!, value: pair.slice(pair.indexOf("=") + 1), domain: host, path: "/" })));
    await page.goto(`${sb.url}/servers`);
  };
  await signInAs(viewerCookie);
  await expect(page.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "System" })).toBeChecked();
  await expect.poll(() => isDark(page)).toBe(false);
  await signInAs(await sessionCookie(sb.url, owner.email, owner.password));
  await expect(page.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "Dark" })).toBeChecked();
  await expect.poll(() => isDark(page)).toBe(true);
  // The choice is the owner's own now (kept on the account): back to the default for the tests after this one.
  await page.getByRole("group", { name: "Theme" }).getByTitle("System theme").click();
  await expect.poll(async () => (await owner.api("GET", "/api/v1/me")).body.user.theme).toBe("system");
  await context.close();
});

test("theme: a choice saved in another browser is applied from the first paint of a page load here", async ({ browser }) => {
  // A fresh browser: nothing in its localStorage; the saved choice comes with the page (proxy.ts's sb-theme cookie).
  await owner.api("PATCH", "/api/v1/me", { theme: "dark" });
  const { context, page } = await signedIn(browser, sb.url, owner, { width: 1280 });
  try {
    await page.emulateMedia({ colorScheme: "light" });
    await page.route(`${sb.url}/servers`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(/<script[^>]*\ssrc="[^"]*"[^>]*><\/script>/g, "");
      await route.fulfill({ response, body: html });
    });
    await page.goto(`${sb.url}/servers`);
    expect(await isDark(page)).toBe(true);
    expect((await context.cookies()).find((c) => c.name === "sb-theme")?.value).toBe("dark");
  } finally {
    await owner.api("PATCH", "/api/v1/me", { theme: "system" });
    await context.close();
  }
});

test("at 390 px the navigation is a drawer, tables are lists, dialogs fit, and the tool form and its result work", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { width: 390 });
  await page.goto(`${sb.url}/servers`);
  const menu = page.getByRole("button", { name: "Menu" });
  const main = page.getByRole("navigation", { name: "Main" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(main).toBeHidden();
  await menu.click();
  await expect(main).toBeVisible();
  await expect(page.getByRole("link", { name: "Switchboard home" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(main).toBeHidden();
  await expect(menu).toBeFocused();
  await menu.click();
  await main.getByRole("link", { name: "History", exact: true }).click();
  await expect(page).toHaveURL(/\/history$/);
  await expect(main).toBeHidden();
  const row = page.getByTestId("history-row").first();
  await expect(row).toContainText("get-sum");
  expect((await row.boundingBox())!.width).toBeLessThanOrEqual(390);

  await page.goto(`${sb.url}/settings/members`);
  const memberRow = page.getByRole("row").filter({ hasText: "Vera Viewer" });
  await expect(memberRow).toBeVisible();
  expect(await memberRow.evaluate((tr) => getComputedStyle(tr).display)).toBe("block");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.goto(`${sb.url}/servers/${serverId}`);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Edit everything" });
  await expect(dialog).toBeVisible();
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(box.y + box.height).toBeLessThanOrEqual(844);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // Picking a tool brings its form, stacked below the list, into view.
  await page.getByRole("button", { name: /^get-sum\b/ }).click();
  await expect(page.getByRole("heading", { name: "Get Sum Tool", level: 2 })).toBeInViewport();
  await page.getByRole("button", { name: /^echo\b/ }).click();
  await expect(page.getByLabel("message").first()).toBeInViewport();
  await page.getByLabel("message").first().fill("from a phone");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const result = page.getByTestId("result-view").first();
  await expect(result).toContainText("from a phone");
  await result.scrollIntoViewIfNeeded();
  const resultBox = (await result.boundingBox())!;
  expect(resultBox.x + resultBox.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await context.close();
});

test("keyboard: skip link first, focus visible, header and theme reachable, the palette opens with Ctrl+K and jumps anywhere by fuzzy match", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { width: 1280 });
  await page.goto(`${sb.url}/servers`);
  await expect(page.getByRole("heading", { name: "Servers", level: 1 })).toBeVisible();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe("none");

  // Tab reaches the header: the search button opens the palette, Esc gives focus back.
  const search = page.getByRole("button", { name: "Search…" });
  for (let i = 0; i < 30 && !(await search.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(search).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(palette(page)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(search).toBeFocused();
  // Next comes the theme switch, a radio group: arrows change the theme.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "System" })).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "Dark" })).toBeChecked();
  await expect.poll(() => isDark(page)).toBe(true);
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "System" })).toBeChecked();

  // The hint is for this platform (Linux here): Ctrl, not ⌘.
  await expect(search).toHaveAttribute("aria-keyshortcuts", "Control+K");
  await expect(search.getByTestId("kbd")).toHaveText("CtrlK");

  await page.keyboard.press("Control+k");
  await expect(palette(page)).toBeVisible();
  const input = palette(page).getByRole("combobox");
  await expect(input).toBeFocused();
  await input.fill("gtiny");
  await expect(palette(page).getByRole("option", { name: /Get Tiny Image Tool/ })).toBeVisible();
  await expect(palette(page).getByRole("option", { name: /^Echo Tool/ })).toHaveCount(0);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/servers/${serverId}\\?tool=get-tiny-image$`));
  await expect(page.getByRole("heading", { name: "Get Tiny Image Tool", level: 2 })).toBeVisible();
  await expect(palette(page)).toBeHidden();

  // Another tool of the same server, from the same page.
  await page.keyboard.press("Control+k");
  await input.fill("echo");
  await palette(page).getByRole("option", { name: /^Echo Tool/ }).click();
  await expect(page.getByRole("heading", { name: "Echo Tool", level: 2 })).toBeVisible();

  // A recent call, a page, the server itself.
  await page.keyboard.press("Control+k");
  await input.fill("get-sum");
  await palette(page).getByRole("option").filter({ hasText: "Recent calls" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/calls/${callId}$`));
  await page.keyboard.press("Control+k");
  await input.fill("hstry");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/history$/);
  await page.keyboard.press("Control+k");
  await input.fill("everything");
  await palette(page).getByRole("option").filter({ hasText: "Servers" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/servers/${serverId}$`));

  // Esc closes; Ctrl+K toggles.
  await page.keyboard.press("Control+k");
  await expect(palette(page)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(palette(page)).toBeHidden();
  await context.close();
});

test("palette actions: add server, pair agent, run again, theme", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { width: 1280 });
  await page.goto(`${sb.url}/calls/${callId}`);
  await expect(page.getByRole("heading", { name: /get-sum/, level: 1 })).toBeVisible();
  const input = palette(page).getByRole("combobox");

  await page.keyboard.press("Control+k");
  await input.fill("run again");
  await expect(palette(page).getByRole("option", { name: /Run again.*this call/ })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/history/compare\\?a=${callId}&b=`));
  await expect(page.getByRole("heading", { name: "Compare calls", level: 1 })).toBeVisible();
  await expect(palette(page)).toBeHidden();

  await page.keyboard.press("Control+k");
  await input.fill("pair");
  await palette(page).getByRole("option", { name: "Pair agent" }).click();
  await expect(page.getByTestId("pairing-command")).toContainText(" pair ");
  await expect(page).toHaveURL(/\/agents$/);

  await page.keyboard.press("Control+k");
  await input.fill("add serv");
  await palette(page).getByRole("option", { name: "Add server" }).click();
  await expect(page).toHaveURL(/\/servers\/new$/);

  await page.keyboard.press("Control+k");
  await input.fill("theme dark");
  await palette(page).getByRole("option", { name: "Theme: Dark" }).click();
  await expect.poll(() => isDark(page)).toBe(true);
  await context.close();
});

test("a viewer's palette offers no action the role cannot take", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, viewerCookie, { width: 1280 });
  await page.goto(`${sb.url}/calls/${callId}`);
  await expect(page.getByRole("heading", { name: /get-sum/, level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Search…" }).click();
  const dialog = palette(page);
  await expect(dialog.getByRole("option", { name: "History" })).toBeVisible();
  await expect(dialog.getByRole("option", { name: /Theme: Dark/ })).toBeVisible();
  for (const name of ["Add server", "Pair agent", /Run again/, "Settings: Audit log", "Settings: Share links"]) {
    await expect(dialog.getByRole("option", { name })).toHaveCount(0);
  }
  await context.close();
});

test("on macOS the hints say ⌘ and ⌘K opens the palette", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { width: 1280, mac: true });
  await page.goto(`${sb.url}/servers/${serverId}`);
  const search = page.getByRole("button", { name: "Search…" });
  await expect(search.getByTestId("kbd")).toHaveText("⌘K");
  await expect(search).toHaveAttribute("aria-keyshortcuts", "Meta+K");
  await expect(page.getByTestId("run-shortcut")).toHaveText("⌘↵");
  await page.keyboard.press("Meta+k");
  await expect(palette(page)).toBeVisible();
  await expect(palette(page).getByTestId("palette-shortcut")).toContainText("⌘K");
  await context.close();
});
