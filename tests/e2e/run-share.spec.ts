import { expect, test } from "@playwright/test";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

const SECRET = "vault-value-never-in-a-browser-5d1e";

let sb: ConsoleHandle;
let everything: RunningServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;
let runId = "";

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
  owner = await setupOwner(sb.url);
  expect((await owner.api("PATCH", "/api/v1/workspace", { redactionKeys: ["vault"] })).status).toBe(200);
  const serverId = (await owner.api("POST", "/api/v1/servers", { name: "everything", url: everything.url, timeoutMs: 20_000 })).body.server.id;
  const collection = await owner.api("POST", "/api/v1/collections", {
    name: "nightly",
    steps: [
      { serverId, method: "tools/call", name: "echo", arguments: { message: "fine" } },
      { serverId, method: "tools/call", name: "echo", label: "echo the vault", arguments: { message: JSON.stringify({ vault: SECRET }) }, assert: [{ kind: "json", path: "/content/0/text", contains: "never said" }] },
    ],
  });
  expect(collection.status, JSON.stringify(collection.body)).toBe(201);
  runId = (await owner.api("POST", `/api/v1/collections/${collection.body.collection.id}/runs`, {})).body.run.id;
  await waitFor(async () => (await owner.api("GET", `/api/v1/runs/${runId}`)).body.run.status !== "running", 60_000);
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

test("a member shares a failed run from its page; a signed-out browser sees the failed step's message, redacted", async ({ page, browser }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(owner);
  await page.goto(`${sb.url}/runs/${runId}`);
  await expect(page.getByTestId("run-header-status")).toHaveText("failed");
  await page.getByRole("button", { name: "Share", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Share this run" });
  await dialog.getByRole("button", { name: "Create link" }).click();
  const link = dialog.getByRole("textbox", { name: "Share link" });
  await expect(link).toHaveValue(/\/s\/sbs_[\w-]{43}$/);
  const url = await link.inputValue();

  const stranger = await browser.newContext();
  const anon = await stranger.newPage();
  const opened = await anon.goto(url);
  expect(opened?.status()).toBe(200);
  await expect(anon.getByText("Shared collection run · read-only")).toBeVisible();
  await expect(anon.getByTestId("shared-run-status")).toHaveText("failed");
  const failedStep = anon.getByRole("listitem", { name: "Step 2: echo the vault" });
  await expect(failedStep.getByTestId("shared-run-step-status")).toHaveText("failed");
  await expect(failedStep.getByTestId("shared-assertion")).toContainText('/content/0/text: expected "Echo:');
  await expect(failedStep.getByTestId("shared-assertion")).toContainText("[redacted]");
  await expect(anon.getByRole("listitem", { name: "Step 1: tools/call echo" }).getByTestId("shared-run-step-status")).toHaveText("passed");
  expect(await anon.content()).not.toContain(SECRET);
  expect(await anon.locator('a[href^="/"]').count()).toBe(0);
  await stranger.close();
});
