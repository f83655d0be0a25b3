import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { apiClient, sessionCookie, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";

// Every page, at phone and desktop width, in both themes: axe finds nothing serious or critical,
// and the screenshots in docs/screenshots/pages are taken from these very renders.
const SHOTS = "docs/screenshots/pages";
const WIDTHS = [390, 1280] as const;
const THEMES = ["light", "dark"] as const;

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;
const ids: Record<string, string> = {};

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
  fs.mkdirSync(SHOTS, { recursive: true });
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

async function newPage(browser: Browser, width: number, theme: string, cookie?: string) {
  const context = await browser.newContext({ viewport: { width, height: width < 768 ? 844 : 860 } });
  // The browser's last choice, and the signed-in person's own (which wins once they are known).
  await context.addInitScript(
    ({ t, user }) => {
      localStorage.setItem("theme", t);
      if (user) localStorage.setItem(`theme:${user}`, t);
    },
    { t: theme, user: ids.user },
  );
  if (cookie) {
    const url = new URL(sb.url);
    await context.addCookies(cookie.split("; ").map((pair) => ({ name: pair.split("=")[0]!, value: pair.slice(pair.indexOf("=") + 1), domain: url.hostname, path: "/" })));
  }
  return { context, page: await context.newPage() };
}

/** The page has its heading and nothing is still loading. */
async function settled(page: Page) {
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await expect(page.locator(".animate-pulse")).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: /Loading/ })).toHaveCount(0);
}

async function check(page: Page, name: string, width: number, theme: string) {
  await settled(page);
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(theme === "dark");
  // No sideways scrolling of the page itself at any width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => `${n.html.slice(0, 160)}\n    ${n.failureSummary?.split("\n").slice(1).join(" ")}`).join("\n  ")}`);
  // Soft, so one run lists every page's problems.
  expect.soft(serious, `${name} at ${width}px, ${theme}`).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/${name}-${width}-${theme}.png` });
}

test("set-up page", async ({ browser }) => {
  // Eight axe checks and the console's set-up: past the default 90 s on two busy cores (CI ran it at load 10).
  test.setTimeout(300_000);
  for (const theme of THEMES) {
    for (const width of WIDTHS) {
      const { context, page } = await newPage(browser, width, theme);
      await page.goto(`${sb.url}/setup`);
      await check(page, "setup", width, theme);
      await context.close();
    }
  }
  owner = await setupOwner(sb.url);
  const { api } = owner;
  ids.user = (await api("GET", "/api/v1/me")).body.user.id;
  // The empty console, with its offer of the demo server.
  const cookie = await sessionCookie(sb.url, owner.email, owner.password);
  for (const theme of THEMES) {
    for (const width of WIDTHS) {
      const { context, page } = await newPage(browser, width, theme, cookie);
      await page.goto(`${sb.url}/servers`);
      await expect(page.getByRole("button", { name: "Try the demo server" })).toBeVisible();
      await check(page, "servers-empty", width, theme);
      await context.close();
    }
  }
  ids.server = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 30_000 })).body.server.id;
  expect((await api("POST", `/api/v1/servers/${ids.server}/connect`)).status).toBeLessThan(300);
  const first = await api("POST", `/api/v1/servers/${ids.server}/tools/call`, { name: "echo", arguments: { message: "hello" } });
  const second = await api("POST", `/api/v1/servers/${ids.server}/tools/call`, { name: "echo", arguments: { message: "hello again" } });
  ids.call = first.body.call.id;
  ids.other = second.body.call.id;
  ids.share = (await api("POST", `/api/v1/calls/${ids.call}/shares`, {})).body.share.url;
  ids.invite = (await api("POST", "/api/v1/invitations", { email: "grace@example.com", role: "member" })).body.invitation.url;
  const echo = { serverId: ids.server, method: "tools/call", name: "echo", arguments: { message: "hello" } };
  const steps = [{ ...echo, assert: [{ kind: "status", equals: "ok" }] }, { ...echo, assert: [{ kind: "json", path: "/content/0/text", equals: "nope" }, { kind: "snapshot", expected: { content: [] } }] }];
  ids.collection = (await api("POST", "/api/v1/collections", { name: "Smoke", steps })).body.collection.id;
  ids.run = (await api("POST", `/api/v1/collections/${ids.collection}/runs`, { stopOnFailure: false })).body.run.id;
  await expect.poll(async () => (await api("GET", `/api/v1/runs/${ids.run}`)).body.run.status, { timeout: 30_000 }).not.toBe("running");
  ids.monitor = (await api("POST", "/api/v1/monitors", { collectionId: ids.collection, schedule: { everySeconds: 3600 }, alerts: { mail: ["ops@example.com"] } })).body.monitor.id;
  await api("POST", "/api/v1/environments", { name: "staging", values: { greeting: "hi" }, secrets: { token: "s3cret" }, servers: { api: ids.server } });
  const pairing = (await api("POST", "/api/v1/agents/pairings", { name: "laptop" })).body.pairing;
  ids.agent = (await apiClient(sb.url)("POST", "/api/v1/agents/pair", { code: pairing.code, hostname: "ada-laptop", version: "0.1.0", platform: "linux" })).body.agent.id;
});

test("public pages: sign-in, invitation, shared call", async ({ browser }) => {
  test.setTimeout(300_000);
  const pages = { "sign-in": `${sb.url}/sign-in`, invite: ids.invite!, shared: ids.share! };
  for (const theme of THEMES) {
    for (const width of WIDTHS) {
      const { context, page } = await newPage(browser, width, theme);
      for (const [name, url] of Object.entries(pages)) {
        await page.goto(url);
        await check(page, name, width, theme);
      }
      await context.close();
    }
  }
});

// 126 axe checks and screenshots: 3.8 minutes alone on a quiet 2-core machine, past 10 beside another
// spec in CI (issue 41): one test per theme and width, each with its own time.
const consolePages = (): Record<string, string> => ({
  servers: "/servers",
  "server-new": "/servers/new",
  server: `/servers/${ids.server}`,
  "server-oauth": `/servers/${ids.server}/oauth`,
  agents: "/agents",
  agent: `/agents/${ids.agent}`,
  history: "/history",
  compare: `/history/compare?a=${ids.call}&b=${ids.other}`,
  call: `/calls/${ids.call}`,
  "settings-tokens": "/settings/tokens",
  "settings-members": "/settings/members",
  "settings-workspace": "/settings/workspace",
  "settings-shares": "/settings/shares",
  "settings-audit": "/settings/audit",
  collections: "/collections",
  collection: `/collections/${ids.collection}`,
  run: `/runs/${ids.run}`,
  "settings-environments": "/settings/environments",
  monitors: "/monitors",
  monitor: `/monitors/${ids.monitor}`,
  alerts: "/alerts",
  policies: "/policies",
  approvals: "/approvals",
  "settings-gateway": "/settings/gateway",
});

for (const theme of THEMES) {
  for (const width of WIDTHS) {
    test(`console pages (${theme}, ${width} px)`, async ({ browser }) => {
      test.setTimeout(300_000);
      const cookie = await sessionCookie(sb.url, owner.email, owner.password);
      const { context, page } = await newPage(browser, width, theme, cookie);
      for (const [name, path] of Object.entries(consolePages())) {
        await page.goto(`${sb.url}${path}`);
        await check(page, name, width, theme);
      }
      // The two overlays of the shell: the command palette and, on a phone, the navigation drawer.
      await page.keyboard.press("Control+k");
      await expect(page.getByRole("dialog", { name: "Command palette" }).getByRole("option").first()).toBeVisible();
      await check(page, "palette", width, theme);
      await page.keyboard.press("Escape");
      if (width < 768) {
        await page.getByRole("button", { name: "Menu" }).click();
        await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
        await check(page, "menu", width, theme);
      }
      await context.close();
    });
  }
}
