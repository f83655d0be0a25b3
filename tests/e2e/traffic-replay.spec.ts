import { expect, test, type Page } from "@playwright/test";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";
import { LivePage } from "../pages/live-page";
import { expectAccessible, signedIn } from "./support";

// Issue 27, item 11: the traffic panel sends a recorded request again (as it was, or edited)
// through the call API, so it is recorded as a call; a pinned message stays on top.
test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;
let owner: Awaited<ReturnType<typeof setupOwner>>;
let serverId: string;
let firstCallId: string;

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
  owner = await setupOwner(sb.url);
  serverId = (await owner.api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
  await owner.api("POST", `/api/v1/servers/${serverId}/connect`);
  firstCallId = (await owner.api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: "echo", arguments: { message: "first words" } })).body.call.id;
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

interface Call {
  id: string;
  rerunOfId: string | null;
  origin: string;
  params: { arguments?: Record<string, unknown> };
}

async function echoCalls(): Promise<Call[]> {
  const items = (await owner.api("GET", `/api/v1/calls?serverId=${serverId}&name=echo`)).body.items as { id: string }[];
  // The list holds summaries; the arguments are on each call.
  return Promise.all(items.map(async ({ id }) => (await owner.api("GET", `/api/v1/calls/${id}`)).body.call as Call));
}

/** The traffic panel filtered to tools/call, with the outgoing request opened. */
async function openRequest(page: Page) {
  await page.goto(`${sb.url}/servers/${serverId}`);
  await new LivePage(page).openView("Traffic");
  // From the oldest: the recorded request stays the first row while replays arrive.
  await page.getByRole("button", { name: "Jump to oldest" }).click();
  await page.getByRole("textbox", { name: "Method" }).fill("tools/call");
  // Until the filtered page arrives the list shows the unfiltered one (marked busy), whose first
  // request is `initialize`: a row opened there would be gone a moment later.
  await expect(page.getByRole("list", { name: "Messages" })).not.toHaveAttribute("aria-busy", "true");
  const request = page.getByTestId("traffic-row").and(page.locator('[data-direction="out"][data-kind="request"]')).filter({ hasText: "tools/call" }).first();
  await expect(async () => {
    if (!(await request.getByRole("group", { name: "Message actions" }).isVisible())) await request.getByRole("button").first().click();
    await expect(request.getByRole("group", { name: "Message actions" })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  return request;
}

test("Replay and Edit and send are recorded as calls; invalid JSON sends nothing", async ({ page }) => {
  await new ConsolePage(page, sb.url).signIn(owner);
  const request = await openRequest(page);
  await expect(request.locator("pre").last()).toContainText('"message": "first words"');

  // Replay: the same arguments, a new call, a re-run of the message's call; the panel shows it.
  await request.getByRole("button", { name: "Replay" }).click();
  const result = request.getByTestId("replay-result");
  await expect(result).toContainText("ok", { timeout: 20_000 });
  const replayed = (await echoCalls()).find((c) => c.id !== firstCallId)!;
  expect(replayed).toMatchObject({ rerunOfId: firstCallId, origin: "user", params: { arguments: { message: "first words" } } });
  await expect(result.getByRole("link")).toHaveAttribute("href", `/calls/${replayed.id}`);

  // Edit and send, first with JSON that does not parse: a clear error, nothing sent.
  await request.getByRole("button", { name: "Edit and send…" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit and send" });
  await expect(dialog.getByRole("combobox", { name: "Method" })).toHaveValue("tools/call");
  const params = dialog.getByRole("textbox", { name: "Params (JSON)" });
  await params.fill('{"name": "echo", "arguments": {"message": ');
  await dialog.getByRole("button", { name: "Send" }).click();
  await expect(dialog.getByText(/The params are not valid JSON/)).toBeVisible();
  await expect(params).toHaveAttribute("aria-invalid", "true");
  expect(await echoCalls()).toHaveLength(2);

  await params.fill(JSON.stringify({ name: "echo", arguments: { message: "edited words" } }));
  await dialog.getByRole("button", { name: "Send" }).click();
  await expect(dialog).toBeHidden();
  await expect(result).toContainText("edited words", { timeout: 20_000 });
  await expect(result).toContainText("ok");
  const calls = await echoCalls();
  expect(calls).toHaveLength(3);
  const edited = calls.find((c) => c.params.arguments?.message === "edited words")!;
  expect(edited).toMatchObject({ rerunOfId: firstCallId, origin: "user" });
  await expect(result.getByRole("link")).toHaveAttribute("href", `/calls/${edited.id}`);

  // A response cannot be sent again, and says why.
  const response = page.getByTestId("traffic-row").and(page.locator('[data-kind="response"]')).first();
  await response.getByRole("button").first().click();
  await expect(response.getByTestId("replay-unavailable")).toHaveAttribute("title", "Cannot be sent again: a response is not a request: only requests the console sent can be sent again");
  await expect(response.getByRole("button", { name: "Replay" })).toHaveCount(0);

  await expectAccessible(page, { include: 'section[aria-label="Traffic"]' });
});

test("a pinned message stays on top across a reload", async ({ page }) => {
  await new ConsolePage(page, sb.url).signIn(owner);
  const request = await openRequest(page);
  await request.getByRole("button", { name: "Pin" }).click();
  const pinned = page.getByRole("list", { name: "Pinned messages" }).getByTestId("traffic-pinned-row");
  await expect(pinned).toHaveCount(1);

  // Reloaded in the dark theme, so the axe check below covers the theme the first test did not. It is
  // the person's saved theme (a browser's stored one gives way to theirs once the console knows them).
  expect((await owner.api("PATCH", "/api/v1/me", { theme: "dark" })).status).toBe(200);
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await new LivePage(page).openView("Traffic");
  // Whatever the filter: the pin shows above the list even when the list shows only responses.
  await page.getByRole("combobox", { name: "Direction" }).selectOption("in");
  await expect(pinned).toHaveCount(1);
  await expect(pinned).toHaveAttribute("data-kind", "request");
  await expect(pinned).toContainText("tools/call");
  const box = await pinned.boundingBox();
  const firstRow = await page.getByTestId("traffic-row").first().boundingBox();
  expect(box!.y).toBeLessThan(firstRow!.y);

  await expectAccessible(page, { include: 'section[aria-label="Traffic"]' });

  await pinned.getByRole("button").first().click();
  await pinned.getByRole("button", { name: "Unpin" }).click();
  await expect(pinned).toHaveCount(0);
  expect((await owner.api("PATCH", "/api/v1/me", { theme: "system" })).status).toBe(200);
});

test("a viewer may pin but not replay", async ({ browser }) => {
  const invited = await owner.api("POST", "/api/v1/invitations", { email: "vic@example.com", role: "viewer" });
  const accepted = await apiClient(sb.url)("POST", "/api/v1/invitations/accept", { token: invited.body.invitation.url.split("/invite/")[1], name: "Vic", password: "password-vic-123" });
  expect(accepted.status).toBe(200);
  // 1440×900: the config's viewport, which browser.newContext() gave this page before.
  const { context, page } = await signedIn(browser, sb.url, { email: "vic@example.com", password: "password-vic-123" }, { width: 1440, height: 900 });
  const request = await openRequest(page);
  await expect(request.getByRole("button", { name: "Replay" })).toHaveAttribute("aria-disabled", "true");
  await expect(request.getByRole("button", { name: "Edit and send…" })).toHaveAttribute("aria-disabled", "true");
  await expect(request.getByRole("button", { name: "Pin" })).toBeEnabled();
  await expect(request.getByRole("button", { name: "Pin" })).not.toHaveAttribute("aria-disabled", "true");
  await context.close();
});
