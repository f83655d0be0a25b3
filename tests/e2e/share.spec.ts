import { expect, test, type Page } from "@playwright/test";
import { apiClient, startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, startFixture, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };
const SECRET = "hunter2-never-public";
const SHOTS = "docs/screenshots";

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;
let permalink = "";

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

async function typeJsonArguments(page: Page, value: unknown) {
  await page.getByRole("group", { name: "Arguments editor" }).getByRole("button", { name: "JSON" }).click();
  await page.getByRole("textbox", { name: "Arguments (JSON)" }).click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(JSON.stringify(value));
}

test("owner shares a call; a signed-out browser sees it read-only with the secret masked; revoked, it answers 410", async ({ page, browser }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.setup(OWNER);
  await ui.addServer("everything", everything.url);
  await ui.openTool("echo");
  await typeJsonArguments(page, { message: "shared hello", password: SECRET });
  await ui.runTool();
  await expect(ui.result()).toContainText("shared hello");
  await ui.result().getByRole("link", { name: "Permalink" }).click();
  await expect(page).toHaveURL(/\/calls\/[\w-]+$/);
  permalink = page.url();

  await page.getByRole("button", { name: "Share", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Share this call" });
  await expect(dialog.getByRole("list", { name: "Masked fields" })).toHaveText("params.arguments.password");
  const preview = dialog.getByTestId("share-preview");
  await expect(preview).toContainText("[redacted]");
  await expect(preview.getByTestId("json-mark")).toHaveCount(1);
  await expect(preview.getByTestId("json-mark")).toHaveAttribute("data-path", "/arguments/password");
  await expect(preview).not.toContainText(SECRET);
  await dialog.getByRole("button", { name: "Create link" }).click();
  const link = dialog.getByRole("textbox", { name: "Share link" });
  await expect(link).toHaveValue(/\/s\/sbs_[\w-]{43}$/);
  const url = await link.inputValue();
  await expect(dialog.getByTestId("share-row")).toHaveCount(1);
  await page.screenshot({ path: `${SHOTS}/share-dialog.png` });

  const stranger = await browser.newContext();
  const anon = await stranger.newPage();
  const opened = await anon.goto(url);
  expect(opened?.status()).toBe(200);
  const shared = anon.getByTestId("shared-call");
  await expect(shared.getByRole("heading", { level: 1 })).toContainText("echo");
  await expect(shared.getByTestId("result-view")).toContainText("shared hello");
  await expect(shared.getByRole("group", { name: "Params" })).toContainText('"[redacted]"');
  expect(await anon.content()).not.toContain(SECRET);
  await expect(anon.getByRole("button", { name: "Run again" })).toHaveCount(0);
  await expect(anon.getByRole("button", { name: "Share", exact: true })).toHaveCount(0);
  await expect(anon.getByRole("navigation")).toHaveCount(0);
  expect(await anon.locator('a[href^="/"]').count()).toBe(0);
  await anon.screenshot({ path: `${SHOTS}/shared-call.png` });

  await dialog.getByRole("button", { name: /^Revoke the link/ }).click();
  await page.getByRole("dialog", { name: "Revoke this share link?" }).getByRole("button", { name: "Revoke link" }).click();
  await expect(dialog.getByTestId("share-row")).toHaveCount(0);
  await expect(dialog.getByText("No working link to this call yet.")).toBeVisible();

  const gone = await anon.reload();
  expect(gone?.status()).toBe(410);
  await expect(anon.getByTestId("share-gone")).toContainText("This share link is no longer available");
  await expect(anon.getByTestId("share-gone")).toContainText("revoked");
  await stranger.close();

  await page.keyboard.press("Escape");
  await page.goto(`${sb.url}/settings/shares`);
  await expect(page.getByTestId("share-row")).toHaveCount(1);
  await expect(page.getByTestId("share-row")).toContainText("revoked");
});

test("a signed-out visit to a permalink signs in and comes back to it", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(permalink);
  await expect(page).toHaveURL(`${sb.url}/sign-in?next=${encodeURIComponent(new URL(permalink).pathname)}`);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: /sign in/i }).click();
  await expect(page).toHaveURL(permalink);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("echo");

  // A sign-in link pointing elsewhere lands on the console, not on another site.
  await page.goto(`${sb.url}/sign-in?next=//evil.example/`);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: /sign in/i }).click();
  await expect(page).toHaveURL(`${sb.url}/servers`);
  await context.close();
});

test("a permalink the workspace does not hold says whom to ask, or offers the workspace that holds it", async ({ page }) => {
  await new ConsolePage(page, sb.url).signIn(OWNER);
  await page.goto(`${sb.url}/calls/not-a-call-of-yours`);
  await expect(page.getByText("You don't have access to this call")).toBeVisible();
  await expect(page.getByText(/ask a member of its workspace for access \(or for a share link\)/i)).toBeVisible();

  const created = await page.evaluate(async () => {
    const res = await fetch("/api/v1/workspaces", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Staging" }) });
    return ((await res.json()) as { workspace: { id: string } }).workspace.id;
  });
  await page.evaluate((id) => window.localStorage.setItem("sb.workspaceId", id), created);
  await page.goto(permalink);
  await page.getByRole("button", { name: "Switch to Default" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("echo");
});

test("a shared result keeps UI cards inert and never loads an MCP App", async ({ page, browser }) => {
  const [cards, apps] = await Promise.all([startFixture("cards-server.ts"), startFixture("apps-server.ts")]);
  const stranger = await browser.newContext();
  try {
    await new ConsolePage(page, sb.url).signIn(OWNER);
    const created = await page.request.post(`${sb.url}/api/v1/tokens`, { data: { name: "e2e" }, headers: { origin: sb.url } });
    const api = apiClient(sb.url, ((await created.json()) as { secret: string }).secret);
    const shareOf = async (server: RunningServer, name: string, tool: string, args: Record<string, unknown>) => {
      const serverId = (await api("POST", "/api/v1/servers", { name, url: server.url })).body.server.id;
      const call = await api("POST", `/api/v1/servers/${serverId}/tools/call`, { name: tool, arguments: args });
      expect(call.body.call.status).toBe("ok");
      return (await api("POST", `/api/v1/calls/${call.body.call.id}/shares`, {})).body.share.url as string;
    };
    const cardLink = await shareOf(cards, "cards", "deploy-status", {});
    const appLink = await shareOf(apps, "apps", "greet", { name: "Ada" });

    const anon = await stranger.newPage();
    const requests: string[] = [];
    anon.on("request", (r) => requests.push(r.url()));
    await anon.goto(cardLink);
    const card = anon.getByRole("article", { name: "Card: Deployment #482" });
    await expect(card).toBeVisible();
    const actions = card.getByRole("group", { name: "Card actions" }).getByRole("button");
    await expect(actions).toHaveCount(3);
    for (const action of await actions.all()) await expect(action).toBeDisabled();

    await anon.goto(appLink);
    await expect(anon.getByTestId("result-view")).toContainText("Hello, Ada!");
    await expect(anon.locator("iframe")).toHaveCount(0);
    await expect(anon.getByText(/app could not load/i)).toHaveCount(0);
    expect(requests.filter((url) => url.includes("/api/"))).toEqual([]);
  } finally {
    await stranger.close();
    await Promise.all([cards.stop(), apps.stop()]);
  }
});
