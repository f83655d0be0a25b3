import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Browser } from "@playwright/test";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";
import { signedIn } from "./support";

const SHOTS = "docs/screenshots";

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;
let collectionId = "";
let serverId = "";
let monitorUrl = "";
let receiver: http.Server;
let hookUrl = "";
/** The webhook bodies the loopback receiver got, in order. */
const received: { event: string; url: string; text: string }[] = [];

const step = (assertion: Record<string, unknown>) => ({ serverId, method: "tools/call", name: "echo", arguments: { message: "alpha" }, assert: [assertion] });

test.beforeAll(async () => {
  // The scheduler looks for due monitors often, so a 5 s monitor's ticks are not late by a poll.
  [sb, everything] = await Promise.all([startConsole({ env: { SWITCHBOARD_MONITOR_POLL_MS: "200" } }), startEverything("streamableHttp")]);
  owner = await setupOwner(sb.url);
  serverId = (await owner.api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 20_000 })).body.server.id;
  const created = await owner.api("POST", "/api/v1/collections", { name: "Echo checks", steps: [step({ kind: "json", path: "/content/0/text", equals: "nope" })] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  collectionId = created.body.collection.id;
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push(JSON.parse(body));
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/secret-token`;
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop(), new Promise((resolve) => receiver?.close(resolve))]);
});

test("a monitor every 5 s of a failing collection: failing with one incident and one alert, fixed it recovers, the dashboard shows its uptime", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(owner);
  await page.goto(`${sb.url}/collections/${collectionId}`);
  await page.getByRole("button", { name: "Monitor this collection" }).click();
  await expect(page).toHaveURL(/\/monitors\?new=/);
  const dialog = page.getByRole("dialog", { name: "New monitor" });
  await expect(dialog.getByLabel("Collection", { exact: true })).toHaveValue(collectionId);
  await dialog.getByLabel("Name", { exact: true }).fill("Echo monitor");

  // A cron the API refuses: its message is shown next to the cron field.
  await dialog.getByRole("radio", { name: "Cron expression" }).check();
  await dialog.getByLabel("Cron", { exact: true }).fill("61 * * * *");
  await dialog.getByRole("button", { name: "Create monitor" }).click();
  await expect(dialog.getByLabel("Cron", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByLabel("Cron", { exact: true })).toHaveAccessibleDescription(/schedule\.cron/);

  await dialog.getByRole("radio", { name: "Every few seconds" }).check();
  await dialog.getByLabel("Every (seconds)").fill("5");
  await dialog.getByRole("textbox", { name: "Webhooks" }).fill(hookUrl);
  await dialog.getByRole("button", { name: "Create monitor" }).click();
  await expect(page).toHaveURL(/\/monitors\/[\w-]+$/);
  monitorUrl = page.url();
  await expect(page.getByRole("heading", { name: /Echo monitor/, level: 1 })).toBeVisible();
  await expect(page.getByTestId("monitor-schedule")).toHaveText("every 5 seconds");
  // The webhook's path carries its token: the page shows the host only.
  await expect(page.getByRole("region", { name: "Status" })).toContainText(`${new URL(hookUrl).origin}/…`);
  await expect(page.getByRole("region", { name: "Status" })).not.toContainText("secret-token");

  // The first tick runs the collection, its step fails: an incident opens, shown on the page.
  await expect(page.getByTestId("monitor-state")).toHaveText("failing", { timeout: 30_000 });
  await expect(page.getByRole("alert").filter({ hasText: "Open incident since" })).toBeVisible();
  await expect(page.locator('[data-testid="monitor-incident"][data-open="true"]')).toHaveCount(1);
  await expect(page.getByTestId("monitor-run").filter({ hasText: "failed" }).first()).toBeVisible();
  // A second failing run joins the incident instead of opening another.
  await expect.poll(async () => (await owner.api("GET", `/api/v1/monitors/${monitorId()}/runs`)).body.items.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId("monitor-incident")).toHaveCount(1);
  await page.screenshot({ path: `${SHOTS}/monitor-failing.png` });

  // Edit the mail only: the stored webhook is kept (it is not shown, so it is not sent back).
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const edit = page.getByRole("dialog", { name: "Edit Echo monitor" });
  await expect(edit.getByRole("textbox", { name: "Webhooks" })).toHaveValue("");
  await edit.getByLabel("Mail to").fill("not-an-address");
  await edit.getByRole("button", { name: "Save monitor" }).click();
  await expect(edit.getByLabel("Mail to")).toHaveAttribute("aria-invalid", "true");
  await edit.getByLabel("Mail to").fill("ops@example.com");
  await edit.getByRole("button", { name: "Save monitor" }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByRole("region", { name: "Status" })).toContainText(`ops@example.com, ${new URL(hookUrl).origin}/…`);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Alerts" }).click();
  const failing = page.locator('[data-testid="alert"][data-event="failing"]');
  await expect(failing).toHaveCount(1);
  await expect(failing.getByRole("link", { name: "Echo monitor" })).toBeVisible();
  await expect(failing.getByRole("link", { name: "Open the run" })).toHaveAttribute("href", /^\/runs\/[\w-]+$/);
  await expect(failing.getByTestId("alert-delivery").filter({ hasText: "console" })).toHaveAttribute("data-ok", "true");
  await expect(failing.getByTestId("alert-delivery").filter({ hasText: "webhook" })).toContainText(`webhook ${new URL(hookUrl).origin}/…: sent`, { timeout: 45_000 });
  expect(received.map((b) => b.event)).toEqual(["failing"]);
  expect(received[0]!.url).toMatch(/\/runs\/[\w-]+$/);

  // Fix the collection: the next run passes, the incident closes, one recovery alert arrives (live, on this page).
  const fixed = await owner.api("PATCH", `/api/v1/collections/${collectionId}`, { steps: [step({ kind: "json", path: "/content/0/text", contains: "alpha" })] });
  expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
  await expect(page.locator('[data-testid="alert"][data-event="recovered"]')).toHaveCount(1, { timeout: 30_000 });
  await expect(failing).toHaveCount(1);
  await expect.poll(() => received.map((b) => b.event)).toEqual(["failing", "recovered"]);
  await page.screenshot({ path: `${SHOTS}/alerts.png` });

  await page.goto(monitorUrl);
  await expect(page.getByTestId("monitor-state")).toHaveText("passing");
  await expect(page.locator('[data-testid="monitor-incident"][data-open="false"]')).toHaveCount(1);
  const alerts = page.getByRole("list", { name: "Alerts of this monitor" }).getByTestId("alert");
  await expect(alerts).toHaveCount(2);
  await expect(alerts.nth(0)).toHaveAttribute("data-event", "recovered");
  await expect(page.getByTestId("monitor-tick").first()).toBeVisible();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
  const uptime = page.getByRole("article", { name: "Uptime of Echo monitor" });
  await expect(uptime.getByTestId("monitor-state")).toHaveText("passing");
  await expect(uptime.getByTestId("monitor-uptime-summary")).toContainText(/\d+\.\d% of \d+ runs passed/);
  await expect(uptime.getByRole("img", { name: /1 incident/ })).toBeVisible();
  await expect(uptime.getByRole("figure", { name: "Run duration over time" })).toBeVisible();
  await uptime.screenshot({ path: `${SHOTS}/dashboard-uptime.png` });
});

test("a viewer sees the monitor read-only, with the reason the controls are off", async ({ browser }) => {
  const page = await viewerPage(browser);
  await page.goto(monitorUrl);
  await expect(page.getByRole("heading", { name: /Echo monitor/, level: 1 })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Read-only for you" })).toBeVisible();
  for (const name of ["Edit", "Disable", "Delete"]) await expect(page.getByRole("button", { name, exact: true })).toHaveAttribute("aria-disabled", "true");
  await expect(page.getByTestId("monitor-run").first()).toBeVisible();
  await page.context().close();
});

test("a cron schedule in a time zone shows its next run there; deleting asks first, then the monitor is gone", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(owner);
  await page.goto(monitorUrl);
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  const edit = page.getByRole("dialog", { name: "Edit Echo monitor" });
  await edit.getByRole("radio", { name: "Cron expression" }).check();
  await edit.getByLabel("Cron", { exact: true }).fill("0 9 * * *");
  await edit.getByLabel("Time zone").selectOption("Asia/Tokyo");
  await expect(edit.getByLabel("Cron", { exact: true })).toHaveAccessibleDescription(/^Next: .*9:00/);
  await edit.getByRole("button", { name: "Save monitor" }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByTestId("monitor-schedule")).toHaveText('cron "0 9 * * *" in Asia/Tokyo');
  await expect(page.getByTestId("monitor-next-run")).toContainText(/9:00:00\sAM GMT\+9/);

  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Delete Echo monitor?" });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  expect((await owner.api("GET", `/api/v1/monitors/${monitorId()}`)).status).toBe(200);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await confirm.getByRole("button", { name: "Delete monitor" }).click();
  await expect(page).toHaveURL(/\/monitors$/);
  await expect(page.getByRole("heading", { name: "Monitors", level: 1 })).toBeVisible();
  await expect(page.getByText("No monitors yet")).toBeVisible();
  expect((await owner.api("GET", `/api/v1/monitors/${monitorId()}`)).status).toBe(404);
});

function monitorId(): string {
  return new URL(monitorUrl).pathname.split("/")[2]!;
}

async function viewerPage(browser: Browser) {
  const invitation = (await owner.api("POST", "/api/v1/invitations", { email: "vera@example.com", role: "viewer" })).body.invitation;
  const token = new URL(invitation.url).pathname.split("/").pop();
  expect((await apiClient(sb.url)("POST", "/api/v1/invitations/accept", { token, name: "Vera Viewer", password: "viewer password 123" })).status).toBeLessThan(300);
  // 1440×900: the config's viewport, which browser.newContext() gave this page before.
  const { page } = await signedIn(browser, sb.url, { email: "vera@example.com", password: "viewer password 123" }, { width: 1440, height: 900 });
  return page;
}
