import fs from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { apiClient, sessionCookie, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { signedIn } from "./support";

// Everyday use, third pass: alerts reach people inside the console (a count in the navigation, a
// live notice for those who may act), one status word per server, a refused action's reason by tap
// and keyboard, and "require SSO" naming whom it would lock out.
test.describe.configure({ mode: "serial" });

const SHOTS = "docs/screenshots";
let sb: ConsoleHandle;
let everything: RunningServer;
let doomed: RunningServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;
let serverId = "";
let deadId = "";
let collectionId = "";
const cookies: Record<"viewer" | "member", string> = { viewer: "", member: "" };

async function join(email: string, name: string, role: string): Promise<string> {
  const invitation = (await owner.api("POST", "/api/v1/invitations", { email, role })).body.invitation;
  const token = new URL(invitation.url).pathname.split("/").pop();
  expect((await apiClient(sb.url)("POST", "/api/v1/invitations/accept", { token, name, password: "a long password 123" })).status).toBeLessThan(300);
  return sessionCookie(sb.url, email, "a long password 123");
}

test.beforeAll(async () => {
  [sb, everything, doomed] = await Promise.all([
    // An operator identity provider for example.com (nothing contacts it here): the SSO settings can preview whom "require SSO" locks out.
    startConsole({
      env: {
        SWITCHBOARD_MONITOR_POLL_MS: "200",
        SWITCHBOARD_SSO_ISSUER: "https://idp.example.com",
        SWITCHBOARD_SSO_CLIENT_ID: "switchboard",
        SWITCHBOARD_SSO_CLIENT_SECRET: "not-used-here",
        SWITCHBOARD_SSO_NAME: "Acme IdP",
        SWITCHBOARD_SSO_DOMAIN: "example.com",
      },
    }),
    startEverything("streamableHttp"),
    startEverything("streamableHttp"),
  ]);
  owner = await setupOwner(sb.url);
  serverId = (await owner.api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 30_000 })).body.server.id;
  deadId = (await owner.api("POST", "/api/v1/servers", { name: "doomed", url: doomed.url, timeoutMs: 10_000 })).body.server.id;
  expect((await owner.api("POST", `/api/v1/servers/${serverId}/connect`)).status).toBeLessThan(300);
  const step = { serverId, method: "tools/call", name: "echo", arguments: { message: "morning" }, assert: [{ kind: "json", path: "/content/0/text", equals: "never this" }] };
  collectionId = (await owner.api("POST", "/api/v1/collections", { name: "Morning checks", steps: [step] })).body.collection.id;
  cookies.viewer = await join("vera@example.com", "Vera Viewer", "viewer");
  cookies.member = await join("mo@example.com", "Mo Member", "member");
  await join("olga@elsewhere.org", "Olga Outside", "member");
  fs.mkdirSync(SHOTS, { recursive: true });
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop(), doomed?.stop()]);
});

/** Opens `path` and waits until the tab's live event stream answered, so nothing published afterwards is missed. */
async function openLive(page: Page, path: string) {
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/v1/events");
  await page.goto(`${sb.url}${path}`);
  await stream;
}

/** The element that describes a control (its reason). */
async function describedBy(control: Locator): Promise<Locator> {
  const id = (await control.getAttribute("aria-describedby"))!;
  return control.page().locator(`[id="${id}"]`);
}

/** The rendered width of an element: an `sr-only` text is 1 px wide, a shown one is not. */
const widthOf = (locator: Locator) => locator.evaluate((el) => el.getBoundingClientRect().width);

test("a failing monitor brings a live notice and an unread count to those who may act on it, at 1366 and 390; opening Alerts marks them read", async ({ browser }) => {
  const own = await signedIn(browser, sb.url, owner, { width: 1366, height: 900 });
  const mem = await signedIn(browser, sb.url, cookies.member, { width: 390, height: 844 });
  const view = await signedIn(browser, sb.url, cookies.viewer, { width: 1366, height: 900 });
  await Promise.all([openLive(own.page, "/servers"), openLive(mem.page, "/servers"), openLive(view.page, "/monitors")]);

  const monitor = (await owner.api("POST", "/api/v1/monitors", { collectionId, name: "Morning monitor", schedule: { everySeconds: 5 } })).body.monitor;
  const notice = own.page.getByTestId("alert-notice");
  await expect(notice).toContainText("Monitor failing", { timeout: 60_000 });
  // One incident, one alert: the monitor may rest now.
  expect((await owner.api("PATCH", `/api/v1/monitors/${monitor.id}`, { enabled: false })).status).toBe(200);
  await expect(notice).toContainText('Monitor "Morning monitor" is failing');
  await expect(own.page.getByRole("status", { name: "Alert notices" })).toContainText("Monitor failing");
  await expect(notice.getByRole("link", { name: /^Open/ })).toHaveAttribute("href", /^\/runs\//);
  const navAlerts = own.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Alerts/ });
  await expect(navAlerts.getByTestId("unread-alerts")).toHaveText(/^1/);
  await expect(navAlerts).toHaveAccessibleName(/Alerts.*1 unread alert/);
  await own.page.screenshot({ path: `${SHOTS}/alert-badge.png` });

  // At 390 the sidebar is a drawer: the header carries the count, and the notice fits the screen.
  const bell = mem.page.getByTestId("header-alerts");
  await expect(bell).toBeVisible();
  await expect(bell).toHaveAccessibleName(/Alerts.*1 unread alert/);
  const phoneNotice = mem.page.getByTestId("alert-notice");
  await expect(phoneNotice).toContainText("Monitor failing");
  const box = (await phoneNotice.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await mem.page.getByRole("button", { name: "Dismiss this notice" }).click();
  await expect(phoneNotice).toHaveCount(0);

  // A viewer watched the same monitor fail (its page refreshed from the same stream) but may not act: no notice, no count.
  await expect(view.page.getByText("failing").first()).toBeVisible({ timeout: 30_000 });
  await expect(view.page.getByTestId("alert-notice")).toHaveCount(0);
  await expect(view.page.getByTestId("unread-alerts")).toHaveCount(0);

  // Opening Alerts marks them read for this person only, and it stays so after a reload.
  await navAlerts.click();
  await expect(own.page.getByTestId("alert").first()).toContainText("Morning monitor");
  await expect(own.page.getByTestId("unread-alerts")).toHaveCount(0);
  await expect(own.page.getByTestId("alert-notice")).toHaveCount(0);
  await own.page.reload();
  await expect(own.page.getByTestId("alert").first()).toBeVisible();
  await expect(own.page.getByTestId("unread-alerts")).toHaveCount(0);
  await expect(bell).toBeVisible();
  await bell.click();
  await expect(mem.page).toHaveURL(/\/alerts$/);
  await expect(mem.page.getByTestId("header-alerts")).toHaveCount(0);
  await Promise.all([own.context.close(), mem.context.close(), view.context.close()]);
});

test("a server that stopped answering has one status word everywhere, with its reason, at 1366 and 390", async ({ browser }) => {
  expect((await owner.api("POST", `/api/v1/servers/${deadId}/connect`)).status).toBeLessThan(300);
  await doomed.stop();
  const ping = await owner.api("POST", `/api/v1/servers/${deadId}/ping`);
  expect(ping.body.ping?.health ?? "failed", JSON.stringify(ping.body)).not.toBe("healthy");

  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    const { context, page } = await signedIn(browser, sb.url, owner, { width, height });
    await page.goto(`${sb.url}/servers/${deadId}`);
    const header = page.getByTestId("server-header");
    const word = header.getByTestId("server-status");
    await expect(word).toHaveText(/^(unhealthy|unreachable)$/);
    const shown = (await word.textContent())!;
    // Not "● connected" beside "unhealthy": the header says one thing, and why.
    await expect(header).not.toContainText(/\bconnected\b/);
    await expect(header.getByTestId("server-status-reason")).toContainText(/refused|failed|closed|reach/i);
    // No second word from the health check beside it.
    await expect(header.getByText(/^(healthy|unhealthy)$/)).toHaveCount(shown === "unhealthy" ? 1 : 0);

    // The list and the navigation use the same word.
    await page.goto(`${sb.url}/servers`);
    await expect(page.locator("main tr", { hasText: "doomed" }).getByTestId("server-status")).toHaveText(shown);
    if (width < 768) await page.getByRole("button", { name: "Menu" }).click();
    await expect(page.getByRole("navigation", { name: "Servers" }).getByRole("link", { name: /doomed/ })).toHaveAccessibleName(new RegExp(`^doomed\\s*\\(${shown}\\)$`));
    await context.close();
  }
});

test("a refused action says why when tapped on a phone, and from the keyboard", async ({ browser }) => {
  const phone = await signedIn(browser, sb.url, cookies.viewer, { width: 390, height: 844, hasTouch: true });
  await phone.page.goto(`${sb.url}/servers/${serverId}`);
  const reconnect = phone.page.getByRole("button", { name: "Reconnect", exact: true });
  await expect(reconnect).toHaveAccessibleDescription(/^Viewers can't connect servers/);
  const reason = await describedBy(reconnect);
  expect(await widthOf(reason)).toBeLessThanOrEqual(1);
  // (force: Playwright itself will not tap a control marked disabled.)
  await reconnect.tap({ force: true });
  await expect.poll(() => widthOf(reason)).toBeGreaterThan(100);
  const shown = (await reason.boundingBox())!;
  expect(shown.x).toBeGreaterThanOrEqual(0);
  expect(shown.x + shown.width).toBeLessThanOrEqual(390);
  await phone.context.close();

  const desk = await signedIn(browser, sb.url, cookies.viewer, { width: 1366, height: 900 });
  await desk.page.goto(`${sb.url}/servers/${serverId}`);
  const edit = desk.page.getByRole("button", { name: "Edit", exact: true });
  const why = await describedBy(edit);
  await expect(why).toHaveText(/^Viewers can't edit servers/);
  await edit.focus();
  await desk.page.keyboard.press("Enter");
  await expect.poll(() => widthOf(why)).toBeGreaterThan(100);
  await desk.page.keyboard.press("Escape");
  await expect.poll(() => widthOf(why)).toBeLessThanOrEqual(1);
  await desk.page.keyboard.press("Space");
  await expect.poll(() => widthOf(why)).toBeGreaterThan(100);
  // Still nothing happens: no dialog opened.
  await expect(desk.page.getByRole("dialog")).toHaveCount(0);
  await desk.context.close();
});

test("turning on 'require SSO' names the members it would lock out before saving, at 1366 and 390", async ({ browser }) => {
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    const { context, page } = await signedIn(browser, sb.url, owner, { width, height });
    await page.goto(`${sb.url}/settings/workspace`);
    const form = page.getByRole("form", { name: "Single sign-on rules" });
    await form.getByRole("checkbox", { name: /Require single sign-on/ }).check();
    const warning = form.getByRole("status").filter({ hasText: "would be locked out" });
    await expect(warning).toContainText("1 member would be locked out");
    await expect(warning.getByRole("list", { name: "Members who would be locked out" })).toContainText("Olga Outside <olga@elsewhere.org>");
    await expect(warning).not.toContainText("mo@example.com");
    await form.getByRole("button", { name: "Save single sign-on" }).click();
    const dialog = page.getByRole("dialog", { name: /lock these members out/ });
    await expect(dialog).toContainText("olga@elsewhere.org");
    await expect(dialog.getByRole("button", { name: "Require SSO, lock out 1" })).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    expect((await owner.api("GET", "/api/v1/workspace/sso")).body.sso.ssoRequired).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await context.close();
  }
});
