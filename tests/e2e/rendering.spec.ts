import { expect, test, type Page } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, startFixture, type RunningServer } from "../support/servers";
import { ResultPage } from "../pages/result-page";

const OWNER = { email: "ada@example.com", password: "correct horse battery" };
const SHOTS = "docs/screenshots";

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;
let cards: RunningServer;
let render: RunningServer;
let api: Awaited<ReturnType<typeof setupOwner>>["api"];
const ids: Record<string, string> = {};

test.beforeAll(async () => {
  [sb, everything, cards, render] = await Promise.all([startConsole(), startEverything("streamableHttp"), startFixture("cards-server.ts"), startFixture("render-server.ts")]);
  ({ api } = await setupOwner(sb.url));
  for (const [name, url] of [["everything", everything.url], ["cards", cards.url], ["render", render.url]] as const) {
    const res = await api("POST", "/api/v1/servers", { name, url, timeoutMs: 30_000 });
    ids[name] = res.body.server.id;
    expect((await api("POST", `/api/v1/servers/${ids[name]}/connect`)).status).toBeLessThan(300);
  }
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop(), cards?.stop(), render?.stop()]);
});

/** Any dialog a payload opens (alert, confirm) is recorded; the tests expect none. */
function guard(page: Page) {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return dialogs;
}

async function open(page: Page, server: string) {
  const ui = new ResultPage(page, sb.url);
  await ui.signIn(OWNER);
  await ui.openServer(ids[server]!);
  return ui;
}

test("server-everything: image, structured output, links, references, annotations, gzip", async ({ page }) => {
  const ui = await open(page, "everything");

  await ui.run("get-tiny-image");
  const img = ui.block("image").locator("img").first();
  await expect(img).toBeVisible();
  expect(await img.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
  expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
  await ui.block("image").getByRole("button", { name: "Zoom image" }).click();
  await expect(ui.dialog().locator("img")).toBeVisible();
  await ui.dialog().getByRole("button", { name: "Close" }).click();
  await expect(ui.block("image").getByRole("button", { name: "Download image" })).toBeVisible();

  await ui.run("get-structured-content", {}, { location: "Chicago" });
  await expect(ui.result().getByText("matches outputSchema")).toBeVisible();
  await ui.result().getByRole("searchbox", { name: "Search structured content" }).fill("humid");
  await expect(ui.structured().getByTestId("json-match").first()).toHaveText(/humidity/);
  await expect(ui.structured().getByRole("button", { name: "Copy path $.humidity" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/result-structured.png` });
  await ui.result().getByRole("button", { name: "Raw JSON" }).click();
  await expect(ui.result().getByLabel("Raw result JSON")).toContainText('"structuredContent"');
  await ui.result().getByRole("button", { name: "Raw JSON" }).click();

  await ui.run("get-resource-links");
  const links = ui.block("resource_link");
  await expect(links.first()).toBeVisible();
  await links.first().getByRole("button", { name: "Read" }).click();
  await expect(links.first().getByRole("list", { name: /^Contents of / })).toBeVisible();
  await expect(links.first().getByRole("link", { name: "Open the read call" })).toBeVisible();

  await ui.run("get-resource-reference");
  await expect(ui.block("resource")).toContainText(/Resource 1|text/i);

  await ui.run("get-annotated-message", {}, { messageType: "error" });
  await expect(ui.result().getByTestId("annotations").first()).toContainText("priority 1");

  const data = `data:text/plain;base64,${Buffer.from("hello gzip ".repeat(50)).toString("base64")}`;
  await ui.run("gzip-file-as-resource", { data }, { outputType: "resource" });
  await expect(ui.block("resource").getByTestId("blob-info")).toContainText("application/gzip");
  await expect(ui.block("resource").getByRole("button", { name: /^Download / })).toBeVisible();
});

test("cards: icons, copy, open a link after confirming, call a tool linked in history", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: sb.url });
  const dialogs = guard(page);
  const ui = await open(page, "cards");
  await expect(page.getByRole("list", { name: "tools" }).getByTestId("server-icon").first()).toBeVisible();
  await expect(page.getByTestId("server-icon").first()).toHaveAttribute("src", /^data:image\/png;base64,/);

  await ui.run("deploy-status");
  const card = ui.card("Deployment #482");
  await expect(card).toBeVisible();
  await expect(card).toContainText("a1b2c3d");
  await page.screenshot({ path: `${SHOTS}/result-card.png` });

  await card.getByRole("button", { name: "Copy commit" }).click();
  await expect(card.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("a1b2c3d4e5f60718293a4b5c6d7e8f9012345678");

  await card.getByRole("button", { name: /Open logs/ }).click();
  await expect(ui.dialog()).toContainText("https://logs.example.com/deployments/482?tab=output");
  const go = ui.dialog().getByRole("link", { name: "Open link" });
  await expect(go).toHaveAttribute("href", "https://logs.example.com/deployments/482?tab=output");
  await expect(go).toHaveAttribute("rel", "noopener noreferrer");
  await expect(go).toHaveAttribute("target", "_blank");
  await ui.dialog().getByRole("button", { name: "Cancel" }).click();
  await expect(ui.dialog()).toBeHidden();

  await card.getByRole("button", { name: "Roll back" }).click();
  await expect(ui.dialog().getByLabel("Tool name")).toHaveText("rollback");
  await expect(ui.dialog().getByLabel("Tool arguments")).toContainText('"deployment": 482');
  await ui.dialog().getByRole("button", { name: "Call tool" }).click();
  await expect(card.getByTestId("card-call")).toContainText("ok");
  const parentUrl = await page.getByRole("link", { name: "Permalink" }).first().getAttribute("href");

  await page.goto(`${sb.url}/history`);
  const row = page.getByTestId("history-row").filter({ hasText: "rollback" }).first();
  await expect(row.getByTestId("history-origin")).toHaveText("card");
  await row.click();
  await expect(page.getByTestId("call-origin").first()).toBeVisible();
  await expect(page.getByRole("link", { name: parentUrl!.split("/").pop()! })).toHaveAttribute("href", parentUrl!);

  await ui.openServer(ids.cards!);
  await ui.run("broken-card");
  await expect(ui.result().getByText("does not match the card schema").first()).toBeVisible();
  await ui.run("release-notes");
  await expect(ui.card("Release 2.4")).toContainText("<script>alert(1)</script>");
  expect(await ui.injected()).toMatchObject({ scripts: 0, onerror: 0, jsLinks: 0, foreignImages: 0 });
  expect(dialogs).toEqual([]);

  // A card's tool call must name a parent on the same server.
  const bad = await api("POST", `/api/v1/servers/${ids.everything}/tools/call`, { name: "echo", arguments: { message: "x" }, origin: "card", parentCallId: "nope" });
  expect(bad.status).toBe(422);
});

test("hostile text, Markdown, SVG images and icons stay inert", async ({ page }) => {
  const dialogs = guard(page);
  const ui = await open(page, "render");

  await ui.run("xss-markdown");
  const text = ui.block("text").first();
  await expect(text).toContainText("<img src=x onerror=alert(1)>");
  await text.getByRole("button", { name: "Markdown" }).click();
  await expect(text).toContainText("<script>alert(1)</script>");
  await expect(ui.block("resource").first().getByText("[image blocked", { exact: false })).toBeVisible();
  await expect(ui.block("resource").first().getByRole("link", { name: "ok link" })).toHaveAttribute("rel", "noopener noreferrer nofollow");
  await ui.block("resource_link").first().getByRole("button", { name: "Read" }).click();
  await expect(ui.block("resource_link").first().getByRole("list", { name: /^Contents of / })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/result-markdown.png` });
  expect(await ui.injected()).toMatchObject({ scripts: 0, onerror: 0, jsLinks: 0, svgImages: 0, xImages: 0 });

  await ui.run("svg-image");
  await expect(ui.result().getByText("SVG images are never displayed", { exact: false }).first()).toBeVisible();
  expect(await ui.result().locator("img").count()).toBe(0);

  await ui.run("svg-icon");
  const iconEntry = page.getByRole("list", { name: "tools" }).locator("li").filter({ hasText: "svg-icon" });
  expect(await iconEntry.locator("img").count()).toBe(0);
  const svg = `data:image/svg+xml;base64,${Buffer.from("<svg onload=alert(1)/>").toString("base64")}`;
  for (const [src, status] of [[svg, 400], ["http://example.com/i.png", 400], ["https://127.0.0.1/i.png", 403], ["javascript:alert(1)", 400]] as const) {
    const res = await page.request.get(`${sb.url}/api/v1/icons?src=${encodeURIComponent(src)}`);
    expect(res.status(), src).toBe(status);
  }

  await ui.run("odd-blocks");
  await expect(ui.result().getByText('Declared as "image/jpeg"', { exact: false })).toBeVisible();
  await expect(ui.block("image").locator("img")).toHaveAttribute("src", /^data:image\/png;base64,/);
  await expect(ui.result().getByText("Audio not played", { exact: false })).toBeVisible();
  await expect(ui.result().getByText('Declared as "image/png", but the bytes are image/gif', { exact: false })).toBeVisible();

  // Blocks the MCP schema forbids are refused by the client: a recorded error that says why.
  await ui.run("invalid-blocks");
  await expect(ui.result().getByTestId("call-status")).toHaveText("error");
  await expect(ui.result().getByRole("alert").first()).toContainText("invalid result");

  await ui.run("empty");
  await expect(ui.result().getByTestId("empty-result")).toContainText("empty result");
  expect(await ui.injected()).toMatchObject({ scripts: 0, onerror: 0, jsLinks: 0, svgImages: 0 });
  expect(dialogs).toEqual([]);
});

test("10 MB text, a 5 MB image and 100,000 rows render without freezing the page", async ({ page }) => {
  const ui = await open(page, "render");

  await ui.run("big-text");
  await expect(ui.result().getByText(/Large result \(1\d\.\d MB\)/)).toBeVisible();
  await expect(ui.result().getByText(/Showing the first 64\.0 KB/)).toBeVisible();
  expect(await ui.result().getByTestId("text-block").evaluate((el) => el.textContent!.length)).toBeLessThan(70_000);
  await page.screenshot({ path: `${SHOTS}/result-large.png` });
  expect(await ui.expectResponsive()).toBeLessThan(5000);
  await ui.openTool("big-text");
  await ui.runTool();
  await ui.result().getByRole("button", { name: "Raw JSON" }).click();
  await expect(ui.result().getByText(/showing the first 256\.0 KB/)).toBeVisible();
  const download = page.waitForEvent("download");
  await ui.result().getByRole("button", { name: "Download raw" }).first().click();
  expect((await download).suggestedFilename()).toMatch(/^call-.*\.json$/);

  await ui.run("big-image");
  const img = ui.block("image").locator("img");
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1280);
  expect(await ui.expectResponsive()).toBeLessThan(5000);

  await ui.run("big-array");
  await expect(ui.result().getByText("matches outputSchema")).toBeVisible();
  await expect(ui.structured().getByRole("button", { name: /99500 more/ })).toBeVisible();
  await ui.result().getByRole("button", { name: "Table" }).click();
  const table = ui.result().getByRole("table", { name: "Table of rows" });
  await expect(table).toHaveAttribute("aria-rowcount", "100001");
  expect(await table.getByRole("row").count()).toBeLessThan(100);
  await table.getByRole("button", { name: /^temp/ }).click();
  await table.getByRole("button", { name: /^temp/ }).click();
  await expect(table.getByRole("row").nth(1).getByRole("cell").nth(3)).toHaveText("44");
  await page.screenshot({ path: `${SHOTS}/result-table.png` });
  expect(await ui.expectResponsive()).toBeLessThan(5000);

  await ui.run("weather");
  await expect(ui.result().getByText("does not match outputSchema")).toBeVisible();
  await expect(ui.structured().locator('[data-testid="schema-mark"][data-path="/rows/1/temp"]')).toContainText("must be number");
});
