import fs from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { apiClient, sessionCookie, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { signedIn } from "./support";

// Issue 27, items 2 and 4: the server page's header is compact and the result lands where the eye
// is; a viewer sees why each control is off, and is not offered what the role can never do.
test.describe.configure({ mode: "serial" });

const SHOTS = "docs/screenshots";
let sb: ConsoleHandle;
let everything: RunningServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;
let serverId: string;
let calls: [string, string];
let viewerCookie: string;

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
  owner = await setupOwner(sb.url);
  serverId = (await owner.api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 30_000 })).body.server.id;
  expect((await owner.api("POST", `/api/v1/servers/${serverId}/connect`)).status).toBeLessThan(300);
  const sum = async (b: number) => (await owner.api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "get-sum", arguments: { a: 2, b } })).body.call.id as string;
  calls = [await sum(3), await sum(40)];
  const invitation = (await owner.api("POST", "/api/v1/invitations", { email: "vera@example.com", role: "viewer" })).body.invitation;
  const token = new URL(invitation.url).pathname.split("/").pop();
  expect((await apiClient(sb.url)("POST", "/api/v1/invitations/accept", { token, name: "Vera Viewer", password: "viewer password 123" })).status).toBeLessThan(300);
  viewerCookie = await sessionCookie(sb.url, "vera@example.com", "viewer password 123");
  fs.mkdirSync(SHOTS, { recursive: true });
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

/** Opens echo on the server page and runs it with `message` (`runAtBottom`: from Run at the screen's bottom edge); answers the result. */
async function runEcho(page: Page, message: string, opts: { runAtBottom?: boolean } = {}): Promise<Locator> {
  await page.goto(`${sb.url}/servers/${serverId}`);
  await page.getByRole("button", { name: /^echo\b/ }).click();
  await page.getByLabel("message").first().fill(message);
  const result = page.getByTestId("result-view").first();
  const run = page.getByRole("button", { name: "Run", exact: true });
  // Run at the bottom edge of the screen, as after reading a long form: the result starts below the fold.
  if (opts.runAtBottom) await run.evaluate((el) => el.scrollIntoView({ block: "end" }));
  // A click before the form listens does nothing (two busy cores): click until the result is there.
  await expect(async () => {
    await run.click();
    await expect(result).toContainText(message, { timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  return result;
}

const box = async (locator: Locator) => (await locator.boundingBox())!;

test("at 1366×900 the header is one compact band and the result lands beside the form, in view, without scrolling", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { width: 1366, height: 900 });
  const result = await runEcho(page, "beside the form");

  // Everything above the tabs (name, status, endpoint, actions, health, session details, roots) fits ~160 px.
  const main = await box(page.locator("main#main"));
  const tabs = await box(page.getByRole("tablist", { name: "Server views" }));
  expect(tabs.y - main.y).toBeLessThanOrEqual(160);
  // What moved into the band is still there: the session's particulars and the roots open below it.
  await expect(page.getByRole("button", { name: "Ping", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Reconnect", exact: true })).toBeVisible();
  await expect(page.getByRole("group", { name: "Roots" })).toBeVisible();

  // The result is entirely inside the viewport, to the right of the form, and the page did not scroll.
  const r = await box(result);
  expect(r.y).toBeGreaterThanOrEqual(0);
  expect(r.y + r.height).toBeLessThanOrEqual(900);
  expect(r.x + r.width).toBeLessThanOrEqual(1366);
  const run = await box(page.getByRole("button", { name: "Run", exact: true }));
  expect(r.x).toBeGreaterThanOrEqual(run.x + run.width);
  expect(r.y).toBeLessThan(run.y + run.height);
  expect(await page.locator("main#main").evaluate((el) => el.scrollTop)).toBe(0);
  await page.screenshot({ path: `${SHOTS}/server-page-1366.png` });

  await page.locator("summary", { hasText: "Session details" }).click();
  await expect(page.getByTestId("server-header").getByText("Protocol", { exact: true })).toBeVisible();
  await context.close();
});

test("at 390×844 the result is scrolled into view after Run, and focus goes with it", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { width: 390, height: 844 });
  const result = await runEcho(page, "from a phone", { runAtBottom: true });
  await expect(result).toBeInViewport();
  await expect(page.getByTestId("result-pane")).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}/server-page-390.png` });
  await context.close();
});

test("at 390×844 no tab of the server page scrolls sideways", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { width: 390, height: 844 });
  await page.goto(`${sb.url}/servers/${serverId}`);
  const views = page.getByRole("tablist", { name: "Server views" }).getByRole("tab");
  await expect(views.first()).toBeVisible();
  const names = await views.allTextContents();
  expect(names.length).toBeGreaterThanOrEqual(5);
  const overflow = () =>
    page.evaluate(() => {
      const main = document.querySelector("main#main")!;
      // What sticks out, to name the culprit when this fails.
      const wide = [...main.querySelectorAll("*")]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && !el.closest(".truncate,[class*='overflow-']"))
        .slice(0, 3)
        .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)}`);
      return { page: document.documentElement.scrollWidth, main: main.scrollWidth - main.clientWidth, wide };
    });
  for (const name of names) {
    await views.filter({ hasText: name }).click();
    await expect(views.filter({ hasText: name })).toHaveAttribute("aria-selected", "true");
    await expect(page.locator(".animate-pulse")).toHaveCount(0);
    // The page itself and its scrolling main area: neither is wider than the screen.
    const { wide, ...widths } = await overflow();
    expect(widths, `tab ${name}: ${wide.join(", ")}`).toEqual({ page: 390, main: 0 });
  }
  await context.close();
});

test("compare page screenshots at 1366 and 390", async ({ browser }) => {
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    const { context, page } = await signedIn(browser, sb.url, owner, { width, height });
    await page.goto(`${sb.url}/history/compare?a=${calls[0]}&b=${calls[1]}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.locator(".animate-pulse")).toHaveCount(0);
    await expect(page.getByText(/40/).first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/compare-${width}.png` });
    await context.close();
  }
});

test("a viewer sees why each control is off, and is not offered New server nor the Invite form", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, viewerCookie, { width: 1366, height: 900 });
  await page.goto(`${sb.url}/servers/${serverId}`);
  const reasons: [Locator, RegExp][] = [
    [page.getByRole("button", { name: "Reconnect", exact: true }), /^Viewers can't connect servers — members, admins and the owner can; ask an admin/],
    [page.getByRole("button", { name: "Edit", exact: true }), /^Viewers can't edit servers — admins and the owner can; ask an admin/],
    [page.getByRole("button", { name: "Ping", exact: true }), /^Viewers can't ping servers/],
  ];
  await page.getByRole("button", { name: /^echo\b/ }).click();
  reasons.push([page.getByRole("button", { name: /^Run/ }), /^Viewers can't run calls — members, admins and the owner can; ask an admin/]);
  for (const [control, reason] of reasons) {
    await expect(control).toBeDisabled();
    // For screen readers (the accessible description) and on hover (the control's own title: it stays hoverable).
    await expect(control).toHaveAccessibleDescription(reason);
    await expect(control).toHaveAttribute("title", reason);
  }
  // Clicking it anyway sends nothing.
  let sent = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && /\/tools\/call$/.test(new URL(r.url()).pathname)) sent++;
  });
  // (force: Playwright itself would refuse to click a control marked disabled.)
  await page.getByRole("button", { name: /^Run/ }).click({ force: true });
  await page.getByLabel("message").first().fill("viewer");
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(page.getByText(/^Running…/)).toHaveCount(0);
  expect(sent).toBe(0);

  await page.goto(`${sb.url}/calls/${calls[0]}`);
  const share = page.getByRole("button", { name: "Share", exact: true });
  await expect(share).toBeDisabled();
  await expect(share).toHaveAccessibleDescription(/^Viewers can't share calls — members, admins and the owner can/);
  await expect(page.getByRole("button", { name: "Run again" })).toHaveAccessibleDescription(/^Viewers can't run calls again/);

  await page.goto(`${sb.url}/servers`);
  await expect(page.getByRole("heading", { name: "Servers", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "everything" }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "New server" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Add server" })).toHaveCount(0);

  await page.goto(`${sb.url}/settings/members`);
  await expect(page.getByText("Vera Viewer").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Invite someone" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Invite", exact: true })).toHaveCount(0);
  await context.close();

  // The owner is offered both.
  const own = await signedIn(browser, sb.url, owner, { width: 1366, height: 900 });
  await own.page.goto(`${sb.url}/settings/members`);
  await expect(own.page.getByRole("heading", { name: "Invite someone" })).toBeVisible();
  await own.page.goto(`${sb.url}/servers`);
  await expect(own.page.getByRole("link", { name: "New server" })).toBeVisible();
  await own.context.close();
});
