import { expect, test, type Page } from "@playwright/test";
import { setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

const SHOTS = "docs/screenshots";

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;
const calls: Record<string, string> = {};
let collectionUrl = "";

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
  owner = await setupOwner(sb.url);
  const server = await owner.api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 20_000 });
  expect(server.status, JSON.stringify(server.body)).toBe(201);
  for (const message of ["alpha", "beta"]) {
    const res = await owner.api("POST", `/api/v1/servers/${server.body.server.id}/tools/call`, { name: "echo", arguments: { message } });
    expect(res.body.call.status).toBe("ok");
    calls[message] = res.body.call.id;
  }
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

/** Opens step `n`'s editor, sets its "value at a path" assertion (adding it when absent) and saves. */
async function setPathAssertion(page: Page, n: number, op: "equals" | "contains", expected: string) {
  await page.getByRole("button", { name: `Edit step ${n}` }).click();
  const dialog = page.getByRole("dialog", { name: `Edit step ${n}` });
  const assertions = dialog.getByRole("list", { name: "Assertions" });
  const group = assertions.getByRole("group", { name: /Value at a path/ });
  if ((await group.count()) === 0) {
    await dialog.getByLabel("New assertion").selectOption("json");
    await dialog.getByRole("button", { name: "Add assertion" }).click();
  }
  await group.getByLabel("Path").fill("/content/0/text");
  await group.getByLabel("Check").selectOption(op);
  await group.getByLabel("Expected").fill(expected);
  await dialog.getByRole("button", { name: "Save step" }).click();
  await expect(dialog).toBeHidden();
}

async function runCollection(page: Page): Promise<string> {
  await page.getByRole("region", { name: "Run" }).getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/runs\/[\w-]+$/);
  return new URL(page.url()).pathname.split("/")[2]!;
}

test("history → new collection, a failing assertion names its path, fixed it passes, two runs compared", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(owner);
  await ui.nav("History");
  const rows = page.getByTestId("history-row");
  await expect(rows).toHaveCount(2);
  await rows.filter({ hasText: "alpha" }).getByRole("checkbox").check();
  await rows.filter({ hasText: "beta" }).getByRole("checkbox").check();
  await page.getByRole("button", { name: "New collection" }).click();
  const create = page.getByRole("dialog", { name: "New collection from these calls" });
  await create.getByLabel("Collection name").fill("Echo checks");
  await create.getByRole("button", { name: "Create collection" }).click();

  await expect(page).toHaveURL(/\/collections\/[\w-]+$/);
  collectionUrl = page.url();
  await expect(page.getByRole("heading", { name: "Echo checks", level: 1 })).toBeVisible();
  const steps = page.getByTestId("step-row");
  await expect(steps).toHaveCount(2);
  // Pre-filled from the calls, oldest first, each with a status assertion.
  await expect(steps.nth(0)).toContainText("tools/call echo");
  await expect(steps.nth(0)).toContainText("1 assertion");

  await setPathAssertion(page, 1, "equals", "nope");
  await expect(steps.nth(0)).toContainText("2 assertions");

  const failedRun = await runCollection(page);
  await expect(page.getByTestId("run-header-status")).toHaveText("failed", { timeout: 30_000 });
  const first = page.getByRole("listitem", { name: /^Step 1:/ });
  await expect(first.getByTestId("run-step-status")).toHaveText("failed");
  const failing = first.locator('[data-testid="assertion-outcome"][data-passed="false"]');
  await expect(failing).toHaveCount(1);
  await expect(failing).toContainText("/content/0/text");
  // Stop on the first failure: the second step never ran.
  await expect(page.getByRole("listitem", { name: /^Step 2:/ }).getByTestId("run-step-status")).toHaveText("skipped");
  await expect(first.getByRole("link", { name: "Open the call of step 1" })).toHaveAttribute("href", /\/calls\/[\w-]+$/);
  await page.screenshot({ path: `${SHOTS}/collections-run-failed.png` });

  await page.getByRole("link", { name: "Echo checks" }).click();
  await expect(page).toHaveURL(collectionUrl);
  await setPathAssertion(page, 1, "contains", "alpha");
  const passedRun = await runCollection(page);
  await expect(page.getByTestId("run-header-status")).toHaveText("passed", { timeout: 30_000 });
  await expect(page.getByTestId("run-summary")).toContainText("2 passed, 0 failed of 2 steps");
  expect(passedRun).not.toBe(failedRun);

  await page.getByLabel("Compare with…").selectOption(failedRun);
  const comparison = page.getByRole("region", { name: "Run comparison" });
  const compared = comparison.getByTestId("compare-step");
  await expect(compared).toHaveCount(2);
  // The earlier run is A, whichever run's page it is compared on.
  await expect(compared.nth(0).getByTestId("compare-a")).toHaveText("failed");
  await expect(compared.nth(0).getByTestId("compare-b")).toHaveText("passed");
  await expect(compared.nth(0)).toContainText("failed → passed");
  await expect(compared.nth(1)).toContainText("skipped → passed");
  await page.screenshot({ path: `${SHOTS}/collections-compare.png` });
});

test("add to collection from a permalink, then reorder with the keyboard", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(owner);
  await page.goto(`${sb.url}/calls/${calls.beta}`);
  await page.getByRole("button", { name: "Add to collection" }).click();
  const dialog = page.getByRole("dialog", { name: "Add to collection" });
  await expect(dialog.getByLabel("Collection", { exact: true })).toHaveValue(/\S+/);
  await dialog.getByRole("button", { name: "Add step" }).click();
  await expect(dialog.getByRole("status")).toContainText("Step 3 of Echo checks");
  await dialog.getByRole("link", { name: "Echo checks" }).click();

  const steps = page.getByTestId("step-row");
  await expect(steps).toHaveCount(3);
  const moveUp = page.getByRole("button", { name: "Move step 3 up" });
  await moveUp.focus();
  await page.keyboard.press("Enter");
  // The step moved to place 2 and kept the focus, so Enter again moves it on.
  await expect(page.getByRole("button", { name: "Move step 2 up" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Move step 1 down" })).toBeFocused();
  const saved = await owner.api("GET", `/api/v1/collections/${new URL(collectionUrl).pathname.split("/")[2]}`);
  const args = saved.body.collection.steps.map((s: { arguments?: { message?: string } }) => s.arguments?.message);
  expect(args).toEqual(["beta", "alpha", "beta"]);
  await page.screenshot({ path: `${SHOTS}/collections-steps.png` });
});

test("an environment from settings: values, a write-only secret, a server alias; a run picks it", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(owner);
  await page.goto(`${sb.url}/settings/environments`);
  await page.getByLabel("Environment name").fill("staging");
  await page.getByRole("button", { name: "Add environment" }).click();
  const env = page.getByRole("region", { name: "Environment staging" });
  await env.getByRole("button", { name: "Add alias" }).click();
  await env.getByLabel("Alias 1", { exact: true }).fill("api");
  await env.getByLabel("Server for alias 1").selectOption({ label: "everything" });
  await env.getByRole("button", { name: "Save staging" }).click();
  await expect.poll(async () => (await owner.api("GET", "/api/v1/environments")).body.items[0]?.servers).toEqual({ api: expect.any(String) });
  await expect(env.getByRole("button", { name: "Save staging" })).toBeEnabled();
  await env.getByLabel("Secret name").fill("token");
  await env.getByLabel("Secret value").fill("s3cret-value");
  await env.getByRole("button", { name: "Set secret" }).click();
  const secrets = env.getByRole("list", { name: "Secrets of staging" });
  await expect(secrets.getByRole("listitem")).toHaveCount(1);
  await expect(secrets.getByRole("button", { name: "Remove secret token" })).toBeVisible();
  await expect(env.getByLabel("Secret value")).toHaveValue("");
  await expect(page.getByText("s3cret-value")).toHaveCount(0);
  const saved = (await owner.api("GET", "/api/v1/environments")).body.items[0];
  expect(saved).toMatchObject({ name: "staging", secretNames: ["token"], servers: { api: expect.any(String) } });

  await page.goto(collectionUrl);
  const run = page.getByRole("region", { name: "Run" });
  await run.getByLabel("Environment").selectOption("staging");
  await run.getByLabel("Stop on first failure").uncheck();
  await runCollection(page);
  await expect(page.getByTestId("run-header-status")).not.toHaveText("running", { timeout: 30_000 });
  await expect(page.getByTestId("run-summary")).toContainText("environment staging · runs every step");
  await expect(page.getByTestId("run-step")).toHaveCount(3);
});
