import { expect, test } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { signedIn } from "./support";

// Issue 27: what a new teammate trips over in the first hour, each checked in a real browser.
test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let owner: Awaited<ReturnType<typeof setupOwner>>;
let demoId: string;

test.beforeAll(async () => {
  sb = await startConsole();
  owner = await setupOwner(sb.url);
  demoId = (await owner.api("POST", "/api/v1/servers/demo")).body.server.id;
  expect((await owner.api("POST", `/api/v1/servers/${demoId}/connect`)).status).toBeLessThan(300);
  for (const b of [1, 2, 3]) {
    expect((await owner.api("POST", `/api/v1/servers/${demoId}/tools/call`, { name: "add", arguments: { a: 1, b } })).status).toBe(200);
  }
});
test.afterAll(async () => {
  await sb?.stop();
});

test("palette: a tool named like the search comes first, loose matches and old calls below it", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { height: 900 });
  await page.goto(`${sb.url}/servers`);
  const palette = page.getByRole("dialog", { name: "Command palette" });
  // The shortcut works once the page is interactive: press until the palette opens.
  await expect(async () => {
    await page.keyboard.press("Control+k");
    await expect(palette).toBeVisible({ timeout: 1000 });
  }).toPass();
  await palette.getByRole("combobox").fill("add");
  const options = palette.getByRole("option");
  await expect(options.first()).toContainText("Add numbers");
  await expect(options.first()).toContainText("Tools");
  await expect(options.filter({ hasText: "Recent calls" })).toHaveCount(3);
  const texts = await options.allTextContents();
  // Every call comes after every capability; nothing matches only because its description has the letters in order.
  const firstCall = texts.findIndex((t) => t.includes("Recent calls"));
  expect(firstCall).toBeGreaterThan(0);
  expect(texts.slice(firstCall).every((t) => t.includes("Recent calls"))).toBe(true);
  expect(texts.some((t) => t.startsWith("Roll dice"))).toBe(false);
  await context.close();
});

test("Reconnect on a connected server says so, and what became of the old session", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { height: 900 });
  await page.goto(`${sb.url}/servers/${demoId}`);
  await expect(page.getByRole("button", { name: "Connect", exact: true })).toHaveCount(0);
  const reconnect = page.getByRole("button", { name: "Reconnect", exact: true });
  await expect(reconnect).toHaveAttribute("title", /Close this session and open a new one/);
  const before = (await owner.api("GET", `/api/v1/servers/${demoId}`)).body.server.session.id;
  await reconnect.click();
  const notice = page.getByRole("status").filter({ hasText: "Reconnected" });
  await expect(notice).toContainText("now closed for everyone using this server");
  const after = (await owner.api("GET", `/api/v1/servers/${demoId}`)).body.server.session.id;
  expect(after).not.toBe(before);
  await notice.getByRole("button", { name: "Dismiss" }).click();
  await expect(notice).toHaveCount(0);
  await context.close();
});

test("a shared call of the demo server says where that server truly runs, on the page and in the preview", async ({ browser }) => {
  const call = (await owner.api("POST", `/api/v1/servers/${demoId}/tools/call`, { name: "hello", arguments: { name: "Ada" } })).body.call;
  const link = (await owner.api("POST", `/api/v1/calls/${call.id}/shares`, {})).body.share.url as string;
  const stranger = await browser.newContext();
  const anon = await stranger.newPage();
  await anon.goto(link);
  const facts = anon.getByTestId("shared-call");
  await expect(facts).toContainText("inside Switchboard: its built-in demo server");
  await expect(facts).not.toContainText("through an agent");
  await expect(facts).not.toContainText("Server URL");
  await stranger.close();

  const { context, page } = await signedIn(browser, sb.url, owner, { height: 900 });
  await page.goto(`${sb.url}/calls/${call.id}`);
  await page.getByRole("button", { name: "Share", exact: true }).click();
  await expect(page.getByRole("dialog")).toContainText("inside Switchboard: its built-in demo server");
  await context.close();
});

test("a call's page says where its time went: console, network and server, the console's stages a tap away, at 390 px", async ({ browser }) => {
  // A ping of the session splits the server's time from the network's.
  expect((await owner.api("POST", `/api/v1/servers/${demoId}/ping`)).body.ping.health).toBe("healthy");
  const call = (await owner.api("POST", `/api/v1/servers/${demoId}/tools/call`, { name: "add", arguments: { a: 2, b: 3 } })).body.call;
  expect(call.timing.networkSource).toBe("ping");
  const { context, page } = await signedIn(browser, sb.url, owner, { width: 390, height: 900 });
  await page.goto(`${sb.url}/calls/${call.id}`);
  const time = page.getByTestId("call-timing");
  await expect(time.getByRole("img")).toHaveAttribute("aria-label", /^Console [\d.]+ ms, Network [\d.]+ ms, Server [\d.]+ ms, of [\d.]+ ms in all$/);
  await expect(time.getByTestId("call-timing-total")).toHaveText(/^[\d.]+ ms$/);
  const stages = time.getByTestId("call-timing-stages");
  await expect(stages).toBeHidden();
  await time.getByTestId("call-timing-console").locator("summary").click();
  for (const stage of ["Route", "Auth", "Validation", "Session", "Connection", "Journal"]) await expect(stages).toContainText(stage);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // A call that had to open the session first: the handshake is not counted as the console's time.
  expect((await owner.api("POST", `/api/v1/servers/${demoId}/disconnect`)).status).toBeLessThan(300);
  const first = (await owner.api("POST", `/api/v1/servers/${demoId}/tools/call`, { name: "add", arguments: { a: 1, b: 1 } })).body.call;
  expect(first.timing.stages.connect).toBeGreaterThanOrEqual(1);
  await page.goto(`${sb.url}/calls/${first.id}`);
  await expect(time.getByRole("img")).toHaveAttribute("aria-label", /^Console [\d.]+ ms, Opening the session [\d.]+ ms, /);
  await context.close();
});

test("history: the origin filter says what it shows, the search hint fits, re-runs link to their originals", async ({ browser }) => {
  const original = (await owner.api("GET", `/api/v1/calls?serverId=${demoId}&name=add`)).body.items.at(-1);
  const rerun = (await owner.api("POST", `/api/v1/calls/${original.id}/rerun`)).body.call;
  const { context, page } = await signedIn(browser, sb.url, owner, { height: 900 });
  await page.goto(`${sb.url}/history`);
  const origin = page.getByLabel("Origin");
  await expect(origin.locator("option:checked")).toHaveText("People's work");
  await expect(origin).toHaveAttribute("title", /re-reading a subscribed resource.*MCP App loading its resources/);
  // The whole placeholder is visible in its box.
  const search = page.getByLabel("Search", { exact: true });
  const fits = await search.evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return ctx.measureText(input.placeholder).width <= room;
  });
  expect(fits).toBe(true);
  const row = page.getByTestId("history-row").filter({ has: page.locator(`a[href="/calls/${rerun.id}"]`) });
  await row.getByTestId("history-rerun-of").click();
  await expect(page).toHaveURL(new RegExp(`/calls/${original.id}$`));
  await context.close();
});

test("compare at phone width keeps the A and B labels on every block", async ({ browser }) => {
  const [newer, older] = (await owner.api("GET", `/api/v1/calls?serverId=${demoId}&name=add`)).body.items;
  const { context, page } = await signedIn(browser, sb.url, owner, { width: 390, height: 900 });
  await page.goto(`${sb.url}/history/compare?a=${newer.id}&b=${older.id}`);
  for (const side of ["A", "B"]) {
    await expect(page.getByRole("region", { name: `Call ${side}` })).toBeVisible();
    await expect(page.getByRole("group", { name: `Params ${side}` })).toBeVisible();
    await expect(page.getByRole("region", { name: "Results" }).getByRole("region", { name: side, exact: true })).toBeVisible();
  }
  // The earlier call is A even though the URL names the newer one first.
  await expect(page.getByRole("region", { name: "Call A" }).getByRole("link")).toHaveAttribute("href", `/calls/${older.id}`);
  await context.close();
});

test("the console's log has no warning about better-auth's base URL", () => {
  expect(sb.logs()).toContain("Switchboard listening on");
  expect(sb.logs()).not.toContain("Base URL is not set");
});
