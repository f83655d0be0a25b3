import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startFixture, type RunningServer } from "../support/servers";
import { expectAccessible, signedIn } from "./support";

// The Quality tab: a snapshot's lint findings, its token cost per definition and the total's history.
test.describe.configure({ mode: "serial" });

const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, required });
const forecast = (description: string) => ({ name: "get_forecast", description, inputSchema: obj({ city: { type: "string", description: "The city to forecast" } }, ["city"]) });
// Seeded faults: a tool without a description (warning), a schema in another dialect (error), a reader without readOnlyHint (info).
const V1 = {
  tools: [
    { name: "ping", inputSchema: { type: "object" } },
    {
      name: "convert",
      description: "Converts a length from one unit to another.",
      inputSchema: { $schema: "http://json-schema.org/draft-07/schema#", ...obj({ value: { type: "number", description: "The length to convert" } }, ["value"]) },
    },
    forecast("The weather forecast for a city, day by day."),
  ],
};
const LONG = "The weather forecast for a city, day by day: temperature, wind, rain and the chance of a storm, from the national service. ".repeat(12);
const V2 = { tools: [V1.tools[0], V1.tools[1], forecast(LONG)] };

interface Report {
  snapshotId: string | null;
  findings: { rule: string; severity: string; item: string; message: string }[];
  tokens: { total: number; tokenizer: string; items: { kind: string; name: string; tokens: number }[] };
  history: { snapshotId: string; takenAt: string; total: number }[];
}

let sb: ConsoleHandle;
let fixture: RunningServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;
let serverId: string;
const capsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-quality-e2e-")), "caps.json");
const lint = async (id = serverId) => {
  const res = await owner.api<Report>("GET", `/api/v1/servers/${id}/lint`);
  expect(res.status).toBe(200);
  return res.body;
};

test.beforeAll(async () => {
  fs.writeFileSync(capsFile, JSON.stringify(V1));
  [sb, fixture] = await Promise.all([startConsole(), startFixture("drift-server.ts", { env: { DRIFT_CAPABILITIES: capsFile } })]);
  owner = await setupOwner(sb.url);
  serverId = (await owner.api("POST", "/api/v1/servers", { name: "weather", url: fixture.url })).body.server.id;
  expect((await owner.api("POST", `/api/v1/servers/${serverId}/connect`)).status).toBeLessThan(300);
  // The connect's snapshot is stored just after the connect answers: the lint is 409 until then.
  await expect.poll(async () => (await owner.api("GET", `/api/v1/servers/${serverId}/lint`)).status).toBe(200);
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), fixture?.stop()]);
});

async function openQuality(page: Page, id = serverId) {
  await page.goto(`${sb.url}/servers/${id}?tab=quality`);
  await expect(page.getByRole("tab", { name: "Quality" })).toHaveAttribute("aria-selected", "true");
}

test("at 1366 the tab shows the total, the seeded error first, the tools by cost, then the history of a change", async ({ browser }) => {
  const { page, close } = await signedIn(browser, sb.url, owner, { width: 1366, height: 900 });
  const before = await lint();
  expect(before.findings.map((f) => `${f.severity} ${f.rule} ${f.item}`)).toEqual(
    expect.arrayContaining(["error schema-dialect tool:convert", "warning description-missing tool:ping", "info read-only-hint tool:get_forecast"]),
  );
  await openQuality(page);

  await expect(page.getByTestId("quality-total")).toHaveText(before.tokens.total.toLocaleString("en-US"));
  await expect(page.getByText(`counted with ${before.tokens.tokenizer}`)).toBeVisible();
  await expect(page.getByTestId("quality-change")).toHaveText("first snapshot");

  const findings = page.getByRole("region", { name: "Findings" }).getByRole("list", { name: / found$/ }).getByRole("listitem");
  await expect(findings.first()).toContainText("error");
  await expect(findings.first()).toContainText("convert");
  await expect(findings.first()).toContainText("schema-dialect");
  await expect(findings).toHaveCount(before.findings.length);
  // The filter leaves the warnings alone.
  await page.getByRole("button", { name: /^Warnings/ }).click();
  await expect(findings).toHaveCount(before.findings.filter((f) => f.severity === "warning").length);
  await expect(findings.first()).toContainText("ping");
  await page.getByRole("button", { name: /^All/ }).click();

  // Largest first, as the API counted them.
  const table = page.getByRole("table", { name: "Token cost by definition" });
  const rows = table.getByRole("row");
  const bySize = [...before.tokens.items].sort((a, b) => b.tokens - a.tokens || a.name.localeCompare(b.name));
  await expect(rows).toHaveCount(bySize.length + 1);
  for (const [i, item] of bySize.entries()) {
    await expect(rows.nth(i + 1)).toContainText(item.name);
    await expect(rows.nth(i + 1)).toContainText(item.tokens.toLocaleString("en-US"));
  }
  expect(bySize.map((i) => i.name).sort()).toEqual(["convert", "get_forecast", "ping"]);
  await expect(page.getByText(/^One snapshot so far/)).toBeVisible();

  // A new version with a long description, reconnected through the API: the open tab hears of the snapshot.
  fs.writeFileSync(capsFile, JSON.stringify(V2));
  expect((await owner.api("POST", `/api/v1/servers/${serverId}/disconnect`)).status).toBeLessThan(300);
  expect((await owner.api("POST", `/api/v1/servers/${serverId}/connect`)).status).toBeLessThan(300);
  await expect.poll(async () => (await lint()).history.length).toBe(2);
  const after = await lint();
  const delta = after.tokens.total - before.tokens.total;
  expect(delta).toBeGreaterThan(0);

  const history = page.getByRole("table", { name: "Token history" });
  await expect(history.getByRole("row")).toHaveCount(3);
  await expect(page.getByRole("figure", { name: "Token total by snapshot" }).locator(".recharts-line-dot")).toHaveCount(2);
  const percent = Math.round((delta / before.tokens.total) * 100);
  const change = `+${percent.toLocaleString("en-US")} % (+${delta.toLocaleString("en-US")} tokens)`;
  await expect(page.getByTestId("quality-change")).toHaveText(change);
  await expect(history.getByRole("row").nth(1)).toContainText(change);
  await expect(history.getByRole("row").nth(2)).toContainText("first");
  await expect(page.getByTestId("quality-total")).toHaveText(after.tokens.total.toLocaleString("en-US"));
  await expect(table.getByRole("row").nth(1)).toContainText("get_forecast");

  // The earlier snapshot is one click away, and back.
  await history.getByRole("button", { name: /^Show the snapshot of/ }).click();
  await expect(page.getByRole("heading", { name: "Earlier snapshot" })).toBeVisible();
  await expect(page.getByTestId("quality-total")).toHaveText(before.tokens.total.toLocaleString("en-US"));
  await page.getByRole("button", { name: "Show the latest" }).click();
  await expect(page.getByTestId("quality-total")).toHaveText(after.tokens.total.toLocaleString("en-US"));
  await expectAccessible(page);
  // The tab scrolls inside the page's main area: a taller window shows all of it.
  await page.setViewportSize({ width: 1366, height: 1700 });
  await page.screenshot({ path: "docs/screenshots/server-quality-1366.png" });
  await close();
});

test("at 390 nothing scrolls sideways and the findings read in full", async ({ browser }) => {
  const { page, close } = await signedIn(browser, sb.url, owner, { width: 390, height: 844 });
  await openQuality(page);
  const first = page.getByRole("region", { name: "Findings" }).getByRole("list", { name: / found$/ }).getByRole("listitem").first();
  await expect(first).toContainText("schema-dialect");
  await expect(page.locator(".animate-pulse")).toHaveCount(0);
  const widths = await page.evaluate(() => {
    const main = document.querySelector("main#main")!;
    return { page: document.documentElement.scrollWidth, main: main.scrollWidth - main.clientWidth };
  });
  expect(widths).toEqual({ page: 390, main: 0 });
  const message = first.getByRole("paragraph");
  await message.scrollIntoViewIfNeeded();
  const box = (await message.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  // The whole message is laid out (wrapped, not cut): its box holds all its text.
  expect(await message.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await expectAccessible(page);
  await page.screenshot({ path: "docs/screenshots/server-quality-390.png" });
  await close();
});

test("a server with no snapshot says to connect it, and Connect lints it", async ({ browser }) => {
  const id = (await owner.api("POST", "/api/v1/servers", { name: "weather-fresh", url: fixture.url })).body.server.id as string;
  const { page, close } = await signedIn(browser, sb.url, owner, { width: 1366, height: 900 });
  await openQuality(page, id);
  await expect(page.getByText("No snapshot yet")).toBeVisible();
  await expect(page.getByText(/^Connect it to lint its definitions/)).toBeVisible();
  await page.getByRole("tabpanel").getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("quality-total")).toBeVisible();
  await expect(page.getByTestId("quality-total")).toHaveText((await lint(id)).tokens.total.toLocaleString("en-US"));
  await expect(page.getByText("No snapshot yet")).toHaveCount(0);
  await close();
});

test("a collection step's lint assertion is offered in its editor, and a run past the budget fails naming the errors (390 px)", async ({ browser }) => {
  const id = (await owner.api("POST", "/api/v1/collections", { name: "Lint gate", steps: [{ serverId, method: "tools/list" }] })).body.collection.id as string;
  const { page, close } = await signedIn(browser, sb.url, owner, { width: 390, height: 844 });
  await page.goto(`${sb.url}/collections/${id}`);
  await page.getByRole("button", { name: "Edit step 1" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit step 1" });
  await dialog.getByLabel("New assertion").selectOption("lint");
  await dialog.getByRole("button", { name: "Add assertion" }).click();
  const group = dialog.getByRole("list", { name: "Assertions" }).getByRole("group", { name: /Lint and token budget/ });
  await expect(group.getByLabel("Fail on")).toHaveValue("error");
  await group.getByLabel("Token budget").fill("10");
  await dialog.getByRole("button", { name: "Save step" }).click();
  await expect(dialog).toBeHidden();
  expect((await owner.api("GET", `/api/v1/collections/${id}`)).body.collection.steps[0].assert).toContainEqual({ kind: "lint", maxTokens: 10 });

  await page.getByRole("region", { name: "Run" }).getByRole("button", { name: "Run", exact: true }).click();
  await expect(page.getByTestId("run-header-status")).toHaveText("failed", { timeout: 30_000 });
  const errors = (await lint()).findings.filter((f) => f.severity === "error");
  expect(errors.map((f) => `${f.rule} ${f.item}`)).toEqual(["schema-dialect tool:convert"]);
  await expect(page.getByRole("list", { name: "Steps of the run" })).toContainText(/1 lint error: schema-dialect tool:convert; [\d\s]+ tokens > 10/);
  await close();
});
