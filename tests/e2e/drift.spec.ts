import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startConsole, type ConsoleHandle } from "../support/console";
import { startFixture, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, required });
const V1 = {
  tools: [
    { name: "forecast", description: "Weather forecast", inputSchema: obj({ city: { type: "string" }, units: { type: "string", enum: ["c", "f", "k"] } }, ["city"]) },
    { name: "legacy", inputSchema: { type: "object" } },
  ],
};
const V2 = {
  tools: [
    { name: "forecast", description: "Weather forecast", inputSchema: obj({ city: { type: "string" }, country: { type: "string" }, units: { type: "string", enum: ["c", "f"] }, verbose: { type: "boolean" } }, ["city", "country"]) },
  ],
};

let sb: ConsoleHandle;
let fixture: RunningServer;
const capsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-drift-e2e-")), "caps.json");

test.beforeAll(async () => {
  fs.writeFileSync(capsFile, JSON.stringify(V1));
  [sb, fixture] = await Promise.all([startConsole(), startFixture("drift-server.ts", { env: { DRIFT_CAPABILITIES: capsFile } })]);
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), fixture?.stop()]);
});

test("the Changes tab shows the snapshot timeline and the diff with breaking labels; an admin watches the server", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.setup(OWNER);
  await ui.addServer("weather", fixture.url);
  const serverUrl = page.url();
  const serverId = serverUrl.split("/").at(-1)!;
  const snapshots = async () => ((await (await page.request.get(`${sb.url}/api/v1/servers/${serverId}/capabilities/history`)).json()) as { items: unknown[] }).items.length;
  await expect.poll(snapshots).toBe(1);

  await page.getByRole("tab", { name: "Changes" }).click();
  const timeline = page.getByRole("table", { name: "Capability snapshots" });
  await expect(timeline.getByRole("row")).toHaveCount(2); // the header and one snapshot
  await expect(timeline).toContainText("first");
  await expect(page.getByTestId("watch-status")).toHaveText("not watched");
  // Loopback only (tests reach nothing else); nothing listens there, the delivery fails and is recorded.
  await page.getByLabel("Webhook URLs").fill("http://127.0.0.1:9/services/T000/B000/XXXX");
  await page.getByRole("button", { name: "Watch this server" }).click();
  await expect(page.getByTestId("watch-status")).toHaveText("watched");
  await expect(page.getByText("Set: http://127.0.0.1:9/…")).toBeVisible();

  fs.writeFileSync(capsFile, JSON.stringify(V2));
  await page.getByRole("button", { name: "Reconnect", exact: true }).click();
  // The open tab hears of the new snapshot (a `capabilities` event) without a reload.
  await expect(timeline.getByRole("row")).toHaveCount(3);
  expect(await snapshots()).toBe(2);

  // Where a breaking-change alert links to.
  await page.goto(`${serverUrl}?tab=changes`);
  await expect(page.getByRole("tab", { name: "Changes" })).toHaveAttribute("aria-selected", "true");
  await expect(timeline.getByRole("row")).toHaveCount(3);
  await expect(timeline.getByRole("row").nth(1)).toContainText("connect");
  await expect(timeline.getByRole("row").nth(1)).toContainText("3 breaking");
  const changes = page.getByRole("list", { name: "Capability changes" }).getByRole("listitem");
  await expect(changes).toHaveCount(4);
  await expect(changes.filter({ hasText: 'required argument "country" added' })).toContainText(/^breaking/);
  await expect(changes.filter({ hasText: 'enum value "k" of "units" removed' })).toContainText(/^breaking/);
  await expect(changes.filter({ hasText: "legacy" })).toContainText("tool removed");
  await expect(changes.filter({ hasText: "legacy" })).toContainText(/^breaking/);
  await expect(changes.filter({ hasText: 'optional argument "verbose" added' })).toContainText("not breaking");
  await page.screenshot({ path: "docs/screenshots/server-changes-tab.png", fullPage: true });
});
