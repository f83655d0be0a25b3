import { expect, test, type Page } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { freePort, startFixture, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

const OWNER = { email: "ada@example.com", password: "correct horse battery" };

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let apps: RunningServer;
let modern: RunningServer;
let api: Awaited<ReturnType<typeof setupOwner>>["api"];
let appsId: string;
let sandboxOrigin: string;

test.beforeAll(async () => {
  const sandboxPort = await freePort();
  sandboxOrigin = `http://127.0.0.1:${sandboxPort}`;
  [sb, apps, modern] = await Promise.all([
    startConsole({ env: { SWITCHBOARD_SANDBOX_PORT: String(sandboxPort) } }),
    startFixture("apps-server.ts"),
    startFixture("modern-server.ts"),
  ]);
  ({ api } = await setupOwner(sb.url));
  appsId = (await api("POST", "/api/v1/servers", { name: "apps", url: apps.url })).body.server.id;
  await api("POST", "/api/v1/servers", { name: "modern", url: modern.url });
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), apps?.stop(), modern?.stop()]);
});

/** The app's own document: the inner iframe inside our proxy page. */
function appFrame(page: Page, tool: string) {
  return page.frameLocator(`iframe[title="App: ${tool}"]`).frameLocator('iframe[title="MCP App"]');
}

async function callTool(name: string, args: Record<string, unknown>): Promise<string> {
  const res = await api("POST", `/api/v1/servers/${appsId}/tools/call`, { name, arguments: args });
  expect(res.status).toBe(200);
  return res.body.call.id as string;
}

test("an app renders on the sandbox origin, shows its result and calls back through the console", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(OWNER);
  await page.goto(`${sb.url}/servers/${appsId}`);
  await ui.openTool("greet");
  await page.getByLabel("name", { exact: false }).first().fill("Ada");
  await ui.runTool();

  const app = appFrame(page, "greet");
  await expect(app.getByText("Result: Hello, Ada!")).toBeVisible();
  await expect(app.getByText('Input: {"name":"Ada"}')).toBeVisible();
  await expect(app.getByText(/^Theme: (light|dark)$/)).toBeVisible();

  // The proxy page runs on the sandbox origin; the app itself in an opaque origin inside it.
  const src = await page.locator('iframe[title="App: greet"]').getAttribute("src");
  expect(new URL(src!).origin).toBe(sandboxOrigin);
  expect(sandboxOrigin).not.toBe(new URL(sb.url).origin);
  const inner = page.frames().find((f) => f.parentFrame()?.url().startsWith(sandboxOrigin));
  expect(await inner!.evaluate(() => window.origin)).toBe("null");

  await app.getByRole("button", { name: "Bump counter" }).click();
  await expect(app.getByText(/^Counter is \d+$/)).toBeVisible();
  await page.screenshot({ path: "docs/screenshots/mcp-app.png" });

  await page.getByRole("link", { name: "History" }).click();
  const row = page.getByTestId("history-row").filter({ hasText: "bump-counter" }).first();
  await expect(row).toBeVisible();
  await expect(row.getByTestId(/^(history|call)-origin$/)).toHaveText(/\bapp\b/);
});

test("the permalink replays the app from the stored input and result", async ({ page }) => {
  const id = await callTool("greet", { name: "Grace" });
  await new ConsolePage(page, sb.url).signIn(OWNER);
  await page.goto(`${sb.url}/calls/${id}`);
  const app = appFrame(page, "greet");
  await expect(app.getByText("Result: Hello, Grace!")).toBeVisible();
  await expect(app.getByText('Input: {"name":"Grace"}')).toBeVisible();

  // The host context follows the console's colour scheme, live.
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(app.getByText("Theme: dark")).toBeVisible();
  await page.emulateMedia({ colorScheme: "light" });
  await expect(app.getByText("Theme: light")).toBeVisible();
  // The console's own theme choice wins over the system's and reaches the app the same way.
  await page.getByRole("group", { name: "Theme" }).getByTitle("Dark theme").click();
  await expect(app.getByText("Theme: dark")).toBeVisible();
  await page.getByRole("group", { name: "Theme" }).getByTitle("System theme").click();
  await expect(app.getByText("Theme: light")).toBeVisible();

  // Closing tears the app down first, then the frame goes.
  await page.getByRole("button", { name: "Close app" }).click();
  await expect(page.getByRole("status").filter({ hasText: "App closed" })).toBeVisible();
  await expect(page.locator('iframe[title="App: greet"]')).toHaveCount(0);
});

test("a hostile app reaches neither the console's cookies nor tools it may not call", async ({ page }) => {
  const id = await callTool("hostile-app", { consoleUrl: sb.url });
  await new ConsolePage(page, sb.url).signIn(OWNER);
  // A script-readable cookie on the console's origin: the one thing an escape could read.
  await page.context().addCookies([{ name: "sb_canary", value: "canary-value-123", url: sb.url }]);
  await page.goto(`${sb.url}/calls/${id}`);
  const report = appFrame(page, "hostile-app").locator('#report[data-done="true"]');
  await expect(report).toBeVisible();
  const text = (await report.textContent())!;
  expect(text).not.toContain("canary-value-123");
  const result = JSON.parse(text) as Record<string, string>;
  expect(result.cookie).toMatch(/^blocked: SecurityError/);
  expect(result.parentDocument).toMatch(/^blocked: SecurityError/);
  expect(result.topDocument).toMatch(/^blocked: SecurityError/);
  expect(result.fetchConsole).toMatch(/^blocked: TypeError/);
  expect(result.hiddenTool).toMatch(/^blocked: .*not visible to apps/);
  expect(result.otherServerTool).toMatch(/^blocked: .*only its own server's tools/);

  // Nothing ran on the hostile app's behalf, not even the message it posted around the proxy.
  // (origin=app: the default history leaves out an app's own resource reads.)
  const history = await api("GET", `/api/v1/calls?limit=200&origin=app`);
  const appCalls = history.body.items.filter((c: { parentCallId: string | null }) => c.parentCallId === id);
  expect(appCalls.map((c: { name: string; method: string }) => c.method)).toEqual(["resources/read"]);
});

test("an app that cannot load leaves the plain content, with the reason", async ({ page }) => {
  const id = await callTool("broken-app", {});
  await new ConsolePage(page, sb.url).signIn(OWNER);
  await page.goto(`${sb.url}/calls/${id}`);
  await expect(page.getByRole("status").filter({ hasText: "The app could not load" })).toContainText('mimeType "text/html"');
  await expect(page.getByText("broken app result").first()).toBeVisible();
  await expect(page.locator('iframe[title="App: broken-app"]')).toHaveCount(0);
});
