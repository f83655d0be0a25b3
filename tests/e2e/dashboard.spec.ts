import { expect, test, type Page } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { insertCalls, type SeedCall } from "../support/seed-calls";
import { startEverything, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

const OWNER = { email: "ada@example.com", password: "correct horse battery" };
const SHOTS = "docs/screenshots";
const HOUR = 3_600_000;

let sb: ConsoleHandle;
let everything: RunningServer;
let weatherId: string;
let everythingId: string;
const seeded: SeedCall[] = [];

// 40 calls of a weather server between 20 and 4 hours ago (three tools, two people, three origins, some
// errors) and three real calls to server-everything.
test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
  const { api, workspace } = await setupOwner(sb.url);
  const me = (await api("GET", "/api/v1/me")).body;
  const ownerId = (me.user ?? me).id as string;
  everythingId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 20_000 })).body.server.id;
  weatherId = (await api("POST", "/api/v1/servers", { name: "weather", url: "http://127.0.0.1:9/mcp" })).body.server.id;
  const now = Date.now();
  for (let i = 0; i < 40; i++) {
    const name = i % 2 ? "get_forecast" : i % 5 ? "get_alerts" : "geocode";
    seeded.push({
      workspaceId: workspace.id,
      serverId: weatherId,
      startedAt: new Date(now - 20 * HOUR + i * 25 * 60_000),
      durationMs: 40 + ((i * 37) % 400),
      status: i % 7 === 3 ? "error" : "ok",
      name,
      userId: i % 4 === 0 ? "u-grace" : ownerId,
      userName: i % 4 === 0 ? "Grace Hopper" : "Ada Owner",
      origin: i % 10 === 9 ? "card" : i % 6 === 5 ? "app" : "user",
    });
  }
  await insertCalls(sb.db, seeded);
  for (const message of ["alpha", "beta", "gamma"]) {
    const res = await api("POST", `/api/v1/servers/${everythingId}/tools/call`, { name: "echo", arguments: { message } });
    expect(res.body.call.status).toBe("ok");
  }
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

const count = (pred: (c: SeedCall) => boolean) => seeded.filter(pred).length;
const figure = (page: Page, label: string) => page.getByRole("link", { name: new RegExp(`^${label}: `) });

test("the workspace dashboard draws every chart and each links to the matching history", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  // The console scrolls inside <main>, so a full screenshot needs a viewport as tall as the page.
  await page.setViewportSize({ width: 1280, height: 1640 });
  await ui.signIn(OWNER);
  await ui.nav("Dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();

  const errors = count((c) => c.status === "error");
  await expect(figure(page, "Calls")).toHaveAccessibleName("Calls: 43");
  await expect(figure(page, "Failure rate")).toHaveAccessibleName(`Failure rate: ${((errors / 43) * 100).toFixed(1)}%`);
  for (const title of ["Calls over time", "Failure rate", "Duration", "Top tools", "By user", "By origin"]) {
    const card = page.getByRole("region", { name: title, exact: true });
    await expect(card.locator("svg.recharts-surface").first()).toBeVisible();
  }
  const tools = page.getByRole("region", { name: "Top tools" });
  await expect(tools.getByRole("row")).toHaveCount(5); // header + 3 weather tools + echo
  await expect(tools.getByRole("row").nth(1)).toContainText("get_forecast");
  await expect(tools.getByRole("row").nth(1)).toContainText(String(count((c) => c.name === "get_forecast")));
  await expect(page.getByRole("region", { name: "By user" }).getByRole("link", { name: "Grace Hopper" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/dashboard-1280.png`, fullPage: true });

  // A tool's row opens history filtered to that tool over the same range.
  await tools.getByRole("link", { name: "get_alerts" }).click();
  await expect(page).toHaveURL(/\/history\?.*name=get_alerts/);
  await expect(page).toHaveURL(/from=.*&to=/);
  await expect(page.getByTestId("history-row")).toHaveCount(count((c) => c.name === "get_alerts"));
  await page.goBack();

  // History filters by origin too, and shows the filter it was given.
  await page.getByRole("region", { name: "By origin" }).getByRole("link", { name: "card" }).click();
  await expect(page).toHaveURL(/origin=card/);
  await expect(page.getByRole("combobox", { name: "Origin" })).toHaveValue("card");
  await expect(page.getByTestId("history-row")).toHaveCount(count((c) => c.origin === "card"));
  await page.goBack();

  await page.getByRole("region", { name: "Failure rate" }).getByRole("link", { name: `${errors} errors` }).click();
  await expect(page).toHaveURL(/status=error/);
  await expect(page.getByTestId("history-row")).toHaveCount(errors);
  await page.goBack();

  // A bar of the time series opens the calls of its bucket.
  await page.getByRole("region", { name: "Calls over time" }).locator(".recharts-bar").first().locator(".recharts-rectangle").last().click();
  await expect(page).toHaveURL(/\/history\?.*from=.*&to=/);
  const url = new URL(page.url());
  const from = Date.parse(url.searchParams.get("from")!);
  const to = Date.parse(url.searchParams.get("to")!);
  expect(to - from).toBeLessThan(HOUR);
  await expect(page.getByTestId("history-row")).not.toHaveCount(0);
});

test("one server's dashboard, opened from its page, and the phone layout", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(OWNER);
  await page.goto(`${sb.url}/servers/${weatherId}`);
  await page.getByRole("main").getByRole("link", { name: "Dashboard", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard\\?serverId=${weatherId}`));
  await expect(page.getByRole("combobox", { name: "Server" })).toHaveValue(weatherId);
  await expect(figure(page, "Calls")).toHaveAccessibleName("Calls: 40");
  const tools = page.getByRole("region", { name: "Top tools" });
  await expect(tools.getByRole("link", { name: "echo" })).toHaveCount(0);

  // Switching servers and ranges refetches: everything's three calls are within the last hour.
  await page.getByRole("combobox", { name: "Server" }).selectOption({ label: "everything" });
  await expect(figure(page, "Calls")).toHaveAccessibleName("Calls: 3");
  await page.getByRole("combobox", { name: "Range" }).selectOption("1h");
  await expect(page).toHaveURL(/range=1h/);
  await expect(figure(page, "Calls")).toHaveAccessibleName("Calls: 3");
  await page.getByRole("combobox", { name: "Server" }).selectOption({ label: "weather" });
  await expect(page.getByText("No calls in this range")).toBeVisible();

  await page.getByRole("combobox", { name: "Range" }).selectOption("24h");
  await expect(figure(page, "Calls")).toHaveAccessibleName("Calls: 40");
  await page.setViewportSize({ width: 390, height: 3400 });
  // Narrow cards keep the time series chart and show groups as their table, every row still a link.
  await expect(page.getByRole("region", { name: "Calls over time" }).getByRole("application")).toBeVisible();
  await expect(page.getByRole("region", { name: "By origin" }).getByRole("link", { name: "card" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/dashboard-390.png`, fullPage: true });
});
