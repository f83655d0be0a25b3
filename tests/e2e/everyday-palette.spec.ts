import { expect, test, type Page } from "@playwright/test";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { signedIn } from "./support";

// Issue 40, items 4 and 5: the palette finds the workspace's work by name, traffic reads newest
// first, assertions are picked from a recorded result, labels show their variables filled in,
// and an import whose name is taken can be renamed.
test.describe.configure({ mode: "serial" });

const SHOTS = "docs/screenshots";

let sb: ConsoleHandle;
let owner: Awaited<ReturnType<typeof setupOwner>>;
let demoId: string;
let collectionId: string;

test.beforeAll(async () => {
  sb = await startConsole();
  owner = await setupOwner(sb.url);
  demoId = (await owner.api("POST", "/api/v1/servers/demo")).body.server.id;
  expect((await owner.api("POST", `/api/v1/servers/${demoId}/connect`)).status).toBeLessThan(300);
  const steps = [{ id: "sum", serverId: demoId, method: "tools/call", name: "add", arguments: { a: 2, b: 3 }, label: "Sum for {{city}}", assert: [{ kind: "status", equals: "ok" }] }];
  const created = await owner.api("POST", "/api/v1/collections", { name: "Weather smoke", variables: { city: "Paris" }, steps });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  collectionId = created.body.collection.id;
  expect((await owner.api("POST", "/api/v1/environments", { name: "lyon", values: { city: "Lyon" } })).status).toBe(201);
  const monitor = await owner.api("POST", "/api/v1/monitors", { collectionId, name: "Weather monitor", environment: "lyon", schedule: { everySeconds: 3600 }, enabled: false });
  expect(monitor.status, JSON.stringify(monitor.body)).toBe(201);
  const runId = (await owner.api("POST", `/api/v1/collections/${collectionId}/runs`, { environment: "lyon" })).body.run.id;
  await waitFor(async () => (await owner.api("GET", `/api/v1/runs/${runId}`)).body.run.status !== "running", 30_000);
  // More than one page of traffic (200 messages): 110 calls, a request and a response each.
  for (let b = 0; b < 110; b++) expect((await owner.api("POST", `/api/v1/servers/${demoId}/tools/call`, { name: "add", arguments: { a: 1, b } })).status).toBe(200);
});
test.afterAll(async () => {
  await sb?.stop();
});

async function openPalette(page: Page) {
  const palette = page.getByRole("dialog", { name: "Command palette" });
  // The shortcut works once the page is interactive: press until the palette opens.
  await expect(async () => {
    await page.keyboard.press("Control+k");
    await expect(palette).toBeVisible({ timeout: 1000 });
  }).toPass();
  return palette;
}

test("palette: names first, descriptions by whole words, and collections, monitors, environments and runs found", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { height: 900 });
  await page.goto(`${sb.url}/servers`);
  const palette = await openPalette(page);
  const search = palette.getByRole("combobox");
  const options = palette.getByRole("option");

  await search.fill("mon");
  await expect(options.first()).toContainText("Monitors");
  await expect(options.filter({ hasText: "Weather monitor" })).toHaveCount(1);
  await expect(options.filter({ hasText: "Settings" })).toHaveCount(0);

  await search.fill("weather");
  await expect(options.nth(0)).toContainText("Weather smoke");
  await expect(options.nth(0)).toContainText("Collections");
  await expect(options.nth(1)).toContainText("Weather monitor");
  await expect(options.nth(2)).toContainText("Weather smoke: last run");
  await expect(options.nth(2)).toContainText("Runs");

  await search.fill("lyon");
  await expect(options.first()).toContainText("Environments");

  // "add": the tool named so first; nothing because a URI or a description merely holds the letters.
  await search.fill("add");
  await expect(options.first()).toContainText("Add numbers");
  await expect(options.filter({ hasText: "Resources" })).toHaveCount(0);
  await expect(options.filter({ hasText: "Roll dice" })).toHaveCount(0);

  await search.fill("weather sm");
  await options.first().click();
  await expect(page).toHaveURL(new RegExp(`/collections/${collectionId}$`));
  await context.close();
});

test("step labels show their variables filled in, on the collection and on the run", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { height: 900 });
  await page.goto(`${sb.url}/collections/${collectionId}`);
  // The last run's environment (lyon) over the collection's own value (Paris).
  await expect(page.getByTestId("step-label")).toHaveText("Sum for Lyon");
  await expect(page.getByTestId("step-label")).toHaveAttribute("title", "Sum for {{city}}");
  // The environment picked in the Run panel wins over the last run's.
  expect((await owner.api("POST", "/api/v1/environments", { name: "nice", values: { city: "Nice" } })).status).toBe(201);
  await page.reload();
  await page.getByRole("region", { name: "Run" }).getByLabel("Environment").selectOption("nice");
  await expect(page.getByTestId("step-label")).toHaveText("Sum for Nice");
  const runId = (await owner.api("GET", `/api/v1/collections/${collectionId}/runs`)).body.items[0].id;
  await page.goto(`${sb.url}/runs/${runId}`);
  await expect(page.getByTestId("run-step")).toHaveAttribute("aria-label", "Step 1: Sum for Lyon");
  await context.close();
});

test("traffic: newest first, older a page at a time, a jump to the oldest, new messages arrive at the top", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { height: 900 });
  await page.goto(`${sb.url}/servers/${demoId}`);
  await page.getByRole("tablist", { name: "Server views" }).getByRole("tab", { name: "Traffic" }).click();
  const rows = page.getByTestId("traffic-messages").getByTestId("traffic-row");
  await expect(rows).toHaveCount(200);
  // The handshake is older than the 220 calls' messages: not on the first page, at the end of the second.
  await expect(rows.filter({ hasText: "initialize" })).toHaveCount(0);
  await page.getByRole("button", { name: "Older messages" }).click();
  await expect.poll(() => rows.count()).toBeGreaterThan(200);
  await expect(rows.filter({ hasText: "initialize" }).last()).toBeVisible();

  // Live: a new call shows at the top.
  expect((await owner.api("POST", `/api/v1/servers/${demoId}/tools/call`, { name: "hello", arguments: { name: "Newest" } })).status).toBe(200);
  await expect(async () => {
    const first = rows.filter({ hasText: "tools/call" }).first();
    if ((await first.locator("pre").count()) === 0) await first.getByRole("button").first().click();
    await expect(first).toContainText("Newest", { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const texts = await rows.allInnerTexts();
  expect(texts.findIndex((t) => t.includes("tools/call"))).toBeLessThan(3);

  await page.getByRole("button", { name: "Jump to oldest" }).click();
  await expect(page.getByRole("list", { name: "Messages, oldest first" })).toBeVisible();
  await expect(rows.first()).toHaveAttribute("data-direction", "out");
  await expect(rows.first()).toHaveAttribute("data-kind", "request");
  await expect(rows.filter({ hasText: "initialize" }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Newer messages" })).toBeVisible();
  await page.getByRole("button", { name: "Back to newest" }).click();
  await expect(page.getByRole("list", { name: "Messages, newest first" })).toBeVisible();
  await context.close();
});

for (const width of [1366, 390]) {
  test(`assertions: a value clicked in the last recorded result fills its pointer and value, no error before typing (${width} px)`, async ({ browser }) => {
    const { context, page } = await signedIn(browser, sb.url, owner, { width, height: width < 768 ? 844 : 900 });
    await page.goto(`${sb.url}/collections/${collectionId}`);
    await page.getByRole("button", { name: "Edit step 1" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit step 1" });
    await dialog.getByLabel("New assertion").selectOption("json");
    await dialog.getByRole("button", { name: "Add assertion" }).click();
    const group = dialog.getByRole("list", { name: "Assertions" }).getByRole("group", { name: /Value at a path/ });
    await expect(group).toBeVisible();
    await expect(dialog.getByRole("alert")).toHaveCount(0);

    const picker = group.getByTestId("result-picker");
    await expect(picker).toContainText("Pick a value from the last run");
    await picker.getByRole("button", { name: "Use /structuredContent/sum = 5" }).click();
    await expect(group.getByLabel("Path")).toHaveValue("/structuredContent/sum");
    await expect(group.getByLabel("Check")).toHaveValue("equals");
    await expect(group.getByLabel("Expected")).toHaveValue("5");
    await expect(dialog.getByRole("alert")).toHaveCount(0);
    if (width === 390) {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await group.evaluate((el) => el.scrollIntoView({ block: "start" }));
      await page.screenshot({ path: `${SHOTS}/assertion-picker.png` });
      await dialog.getByRole("button", { name: "Save step" }).click();
      await expect(dialog).toBeHidden();
      const step = (await owner.api("GET", `/api/v1/collections/${collectionId}`)).body.collection.steps[0];
      expect(step.assert).toContainEqual({ kind: "json", path: "/structuredContent/sum", equals: 5 });
    } else {
      // Typing a path that is not a pointer shows its problem.
      await group.getByLabel("Path").fill("structuredContent");
      await expect(group.getByRole("alert")).toContainText("JSON pointer");
    }
    await context.close();
  });
}

test("importing a collection whose name exists offers a new name, prefilled", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { height: 900 });
  const file = JSON.stringify((await owner.api("GET", `/api/v1/collections/${collectionId}/export`)).body);
  await page.goto(`${sb.url}/collections`);
  await page.getByLabel("Collection file to import").setInputFiles({ name: "weather.collection.json", mimeType: "application/json", buffer: Buffer.from(file) });
  const dialog = page.getByRole("dialog", { name: "Import under another name" });
  await expect(dialog).toContainText("A collection named “Weather smoke” exists already");
  await expect(dialog.getByLabel("Name")).toHaveValue("Weather smoke (2)");
  await dialog.getByRole("button", { name: "Import" }).click();
  await expect(page).toHaveURL(/\/collections\/[\w-]+$/);
  expect(page.url()).not.toContain(collectionId);
  await expect(page.getByRole("heading", { name: "Weather smoke (2)" })).toBeVisible();
  const names = (await owner.api("GET", "/api/v1/collections")).body.items.map((c: { name: string }) => c.name);
  expect(names).toEqual(expect.arrayContaining(["Weather smoke", "Weather smoke (2)"]));
  await context.close();
});
