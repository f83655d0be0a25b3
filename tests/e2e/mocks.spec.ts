import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { expectAccessible, signedIn } from "./support";

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;
let serverId = "";
let mockId = "";

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
  owner = await setupOwner(sb.url);
  serverId = (await owner.api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 60_000 })).body.server.id;
  for (const message of ["one", "two"]) {
    const call = await owner.api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message } });
    expect(call.body.call.status).toBe("ok");
  }
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

test("a mock made from History's filters is listed with its endpoint, and exports the file the CLI serves", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { acceptDownloads: true });
  await page.goto(`${sb.url}/history?serverId=${serverId}`);
  await expect(page.getByTestId("history-row")).toHaveCount(2);
  await page.getByRole("button", { name: "Make a mock…" }).click();
  const dialog = page.getByRole("dialog", { name: "Make a mock server" });
  await expect(dialog).toContainText("the calls the filters show");
  await expectAccessible(page, { name: "make-a-mock dialog", soft: true, loading: page.locator(".animate-pulse") });
  await dialog.getByLabel("Name").fill("echo mock");
  await dialog.getByRole("button", { name: "Make the mock" }).click();
  await expect(dialog.getByText(/1 to 100 of A-Z/)).toBeVisible();
  await dialog.getByLabel("Name").fill("echo-mock");
  await dialog.getByLabel("When a call was not recorded").selectOption("closest");
  await dialog.getByLabel("Arguments to ignore").fill("/message");
  await dialog.getByRole("button", { name: "Make the mock" }).click();
  await expect(dialog.getByRole("status")).toContainText("Mock “echo-mock” made");
  await expect(dialog.getByRole("status")).toContainText("2 recorded calls of everything");
  await dialog.getByRole("link", { name: "Open the mock" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "echo-mock" })).toBeVisible();
  mockId = page.url().split("/").pop()!;
  await expect(page.getByTestId("mock-endpoint")).toHaveText(new RegExp(`^${sb.url}/mcp/[^/]+/mock/echo-mock$`));
  await expect(page.getByLabel("How to use the mock")).toContainText("mock serve mock.json --port 3999");
  await expect(page.getByLabel("When a call was not recorded")).toHaveValue("closest");
  await expect(page.getByRole("table", { name: "Recordings" }).getByRole("row")).toHaveCount(3);
  await expectAccessible(page, { name: "mock page", soft: true, loading: page.locator(".animate-pulse") });

  await page.getByRole("link", { name: "Mocks", exact: true }).first().click();
  const row = page.getByTestId("mock-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("echo-mock");
  await expect(row).toContainText("everything");
  await expect(row.getByText(/^\/mcp\/[^/]+\/mock\/echo-mock$/)).toBeVisible();
  await expect(row).toContainText("closest");
  await expectAccessible(page, { name: "mocks page", soft: true, loading: page.locator(".animate-pulse") });

  const [download] = await Promise.all([page.waitForEvent("download"), row.getByRole("link", { name: "Export echo-mock" }).click()]);
  expect(download.suggestedFilename()).toBe("echo-mock.mock.json");
  const file = JSON.parse(fs.readFileSync((await download.path())!, "utf8"));
  expect(file).toMatchObject({ format: "switchboard-mock/1", name: "echo-mock", match: "closest", ignore: ["/message"], latency: false });
  expect(file.recordings.map((r: { name: string; arguments: unknown }) => [r.name, r.arguments])).toEqual(
    expect.arrayContaining([
      ["echo", { message: "one" }],
      ["echo", { message: "two" }],
    ]),
  );
  await context.close();
});

test("on a phone: the list fits 390 px, the matching is edited and the mock deleted after a confirmation", async ({ browser }) => {
  const { context, page } = await signedIn(browser, sb.url, owner, { width: 390, acceptDownloads: true });
  await page.goto(`${sb.url}/mocks`);
  await expect(page.getByTestId("mock-row")).toContainText("echo-mock");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page, { name: "mocks page at 390 px", soft: true, loading: page.locator(".animate-pulse") });

  await page.getByRole("link", { name: "echo-mock", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "echo-mock" })).toBeVisible();
  await expectAccessible(page, { name: "mock page at 390 px", soft: true, loading: page.locator(".animate-pulse") });
  await page.getByLabel("When a call was not recorded").selectOption("exact");
  await page.getByLabel("Arguments to ignore").fill("message");
  await page.getByRole("button", { name: "Save matching" }).click();
  await expect(page.getByText(/JSON pointers into the arguments, starting with \/: message/)).toBeVisible();
  await page.getByLabel("Arguments to ignore").fill("");
  await page.getByLabel("Answer after each call's recorded duration (latency)").check();
  await page.getByRole("button", { name: "Save matching" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  expect((await owner.api("GET", `/api/v1/mocks/${mockId}`)).body.mock).toMatchObject({ match: "exact", ignore: [], latency: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.getByRole("button", { name: "Delete echo-mock" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete mock" }).click();
  await expect(page).toHaveURL(/\/mocks$/);
  await expect(page.getByText("No mocks yet")).toBeVisible();
  expect((await owner.api("GET", `/api/v1/mocks/${mockId}`)).status).toBe(404);
  await context.close();
});

test("a collection's run makes a mock of its calls, from the run page", async ({ browser }) => {
  const steps = [{ serverId, method: "tools/call", name: "echo", arguments: { message: "from a run" } }];
  const collection = (await owner.api("POST", "/api/v1/collections", { name: "Echo smoke", steps })).body.collection.id;
  const runId = (await owner.api("POST", `/api/v1/collections/${collection}/runs`, {})).body.run.id;
  const { context, page } = await signedIn(browser, sb.url, owner, { acceptDownloads: true });
  await page.goto(`${sb.url}/runs/${runId}`);
  await expect(page.getByTestId("run-header-status")).toHaveText(/passed/);
  await page.getByRole("button", { name: "Make a mock" }).click();
  const dialog = page.getByRole("dialog", { name: "Make a mock server" });
  await expect(dialog.getByLabel("Name")).toHaveValue("echo-smoke");
  await dialog.getByRole("button", { name: "Make the mock" }).click();
  await expect(dialog.getByRole("status")).toContainText("1 recorded call of everything");
  await dialog.getByRole("link", { name: "Open the mock" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "echo-smoke" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Recordings" })).toContainText("from a run");
  await context.close();
});
