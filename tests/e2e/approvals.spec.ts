import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { expect, test, type Page } from "@playwright/test";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { insertMember } from "../support/database";
import { ConsolePage } from "../pages/console-page";

// Issue 42 §4: an `approve` rule holds a gateway host's call (the SDK client, here in the test
// process) until a person decides in the console: approved in the browser, the host gets the
// result; denied with a reason, a JSON-RPC error carrying it; no answer in time, a denial.

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let owner: Awaited<ReturnType<typeof setupOwner>>;
let client: Client;
let transport: StreamableHTTPClientTransport;

test.beforeAll(async () => {
  sb = await startConsole();
  owner = await setupOwner(sb.url);
  const memberToken = await insertMember(sb.db, { workspaceId: owner.workspace.id, userId: "u-mo", name: "Mo Member", email: "mo@example.com", role: "member" });
  const demoId = (await owner.api("POST", "/api/v1/servers/demo")).body.server.id as string;
  const { path } = (await owner.api("PUT", `/api/v1/servers/${demoId}/exposure`, { enabled: true })).body.exposure;
  for (const rule of [
    { name: "hello needs an OK", effect: "approve", servers: [demoId], tools: ["hello"], timeoutSeconds: 120 },
    { name: "add must be quick", effect: "approve", servers: [demoId], tools: ["add"], timeoutSeconds: 3 },
  ]) {
    const res = await owner.api("POST", "/api/v1/policy-rules", rule);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  // The host acts for Mo (a member): Ada, the owner, decides in the browser.
  const secret = (await apiClient(sb.url, memberToken)("POST", "/api/v1/tokens", { name: "approvals-host", scopes: ["gateway"] })).body.secret as string;
  client = new Client({ name: "approvals-host", version: "1.0.0" });
  transport = new StreamableHTTPClientTransport(new URL(`${sb.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } });
  await client.connect(transport);
});
test.afterAll(async () => {
  await client?.close().catch(() => undefined);
  await sb?.stop();
});

/** Opens `path` and waits until the tab's live event stream answered, so nothing published afterwards is missed. */
async function openLive(page: Page, path: string) {
  // This page's stream, by its Referer: the previous page's stream may answer late, after the navigation started.
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/v1/events" && (r.request().headers()["referer"] ?? "").endsWith(path));
  await page.goto(`${sb.url}${path}`);
  await stream;
}

test("a held call is announced, approved in the browser, and the host receives the result", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(owner);
  await openLive(page, "/dashboard");
  const call = client.callTool({ name: "hello", arguments: { name: "Ada" } }, { timeout: 60_000 });

  const notice = page.getByTestId("approval-notice");
  await expect(notice).toContainText("Mo Member wants to call hello on demo");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: /Approvals.*1 call waiting for your approval/ })).toBeVisible();
  await notice.getByRole("link", { name: /Review/ }).click();
  await expect(page).toHaveURL(/\/approvals$/);

  const waiting = page.getByRole("list", { name: "Waiting for a decision" }).getByTestId("approval");
  await expect(waiting).toHaveCount(1);
  await expect(waiting).toContainText("hello");
  await expect(waiting).toContainText("by Mo Member via approvals-host 1.0.0");
  await expect(waiting).toContainText("hello needs an OK");
  await expect(waiting.getByTestId("approval-arguments")).toContainText('"name": "Ada"');
  await expect(waiting).toContainText(/\d+ min \d+ s left/);
  await waiting.getByRole("button", { name: "Approve hello" }).click();

  const result = await call;
  expect(result.content).toEqual([expect.objectContaining({ type: "text", text: expect.stringMatching(/^Hello, Ada!/) })]);
  await expect(page.getByRole("list", { name: "Decided" }).getByTestId("approval").first()).toContainText("Approved by Ada Owner");
  await expect(nav.getByTestId("pending-approvals")).toHaveCount(0);
});

test("a call denied in the browser with a reason is a JSON-RPC error carrying it", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(owner);
  await openLive(page, "/approvals");
  const call = client.callTool({ name: "hello", arguments: { name: "Eve" } }, { timeout: 60_000 }).then(
    () => null,
    (err: Error) => err,
  );
  const waiting = page.getByRole("list", { name: "Waiting for a decision" }).getByTestId("approval");
  await expect(waiting).toContainText('"name": "Eve"');
  await waiting.getByRole("button", { name: "Deny hello" }).click();
  await waiting.getByLabel("Reason for denying").fill("Not on a Friday");
  await waiting.getByRole("button", { name: "Deny call" }).click();

  const error = await call;
  expect(error?.message).toMatch(/Denied by Ada Owner.*hello needs an OK.*Not on a Friday/);
  await expect(page.getByRole("list", { name: "Decided" }).getByTestId("approval").first()).toContainText("Denied by Ada Owner");
});

test("no decision within the rule's timeout is a denial; the page works at 390 px", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(owner);
  await openLive(page, "/approvals");
  const call = client.callTool({ name: "add", arguments: { a: 1, b: 2 } }, { timeout: 60_000 }).then(
    () => null,
    (err: Error) => err,
  );
  const waiting = page.getByRole("list", { name: "Waiting for a decision" }).getByTestId("approval");
  await expect(waiting).toContainText("add must be quick");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const error = await call;
  expect(error?.message).toMatch(/No decision within 3 s.*add must be quick/);
  await expect(page.getByRole("list", { name: "Decided" }).getByTestId("approval").first()).toContainText("Expired");
  await expect(page.getByText("Nothing is waiting")).toBeVisible();
});
