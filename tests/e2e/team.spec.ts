import { expect, test, type Browser, type Page } from "@playwright/test";
import { startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { ConsolePage } from "../pages/console-page";

const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };
const SECRET = "s3cret-team-password";

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

async function invite(page: Page, email: string, role: "viewer" | "member"): Promise<string> {
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption(role);
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  await expect(page.getByTestId("invitation-url")).toContainText("/invite/");
  return (await page.getByTestId("invitation-url").textContent())!.trim();
}

async function accept(browser: Browser, link: string, name: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Password").fill(`${name.toLowerCase()}-password`);
  await page.getByRole("button", { name: "Create account and join" }).click();
  await expect(page).toHaveURL(/\/servers$/);
  return { context, page, ui: new ConsolePage(page, sb.url) };
}

/** The acceptance scenario, end to end in three browsers and a signed-out fourth. */
test("owner invites a viewer and a member; roles hold in UI and API; removal is immediate; a share link is public, masked and revocable", async ({ page, browser }) => {
  const owner = new ConsolePage(page, sb.url);
  await owner.setup(OWNER);
  await owner.addServer("everything", everything.url);
  const serverUrl = page.url();
  const serverId = serverUrl.split("/servers/")[1]!;

  await page.goto(`${sb.url}/settings/members`);
  const viewerLink = await invite(page, "vera@example.com", "viewer");
  const memberLink = await invite(page, "max@example.com", "member");

  const vera = await accept(browser, viewerLink, "Vera");
  const max = await accept(browser, memberLink, "Max");

  // The viewer cannot run a tool: the button is disabled with the reason, and the API refuses.
  await vera.page.goto(serverUrl);
  await vera.ui.openTool("echo");
  const veraRun = vera.page.getByRole("button", { name: /^Run/ });
  await expect(veraRun).toBeDisabled();
  await expect(veraRun).toHaveAccessibleDescription(/^Viewers can't run calls — members, admins and the owner can/);
  const refused = await vera.context.request.post(`${sb.url}/api/v1/servers/${serverId}/tools/call`, { data: { name: "echo", arguments: { message: "viewer" } }, headers: { origin: sb.url } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.details.requiredRole).toBe("member");

  // The member can, with a secret-looking argument that a share link must mask.
  await max.page.goto(serverUrl);
  await max.ui.openTool("echo");
  await max.page.getByRole("group", { name: "Arguments editor" }).getByRole("button", { name: "JSON" }).click();
  await max.page.getByRole("textbox", { name: "Arguments (JSON)" }).click();
  await max.page.keyboard.press("ControlOrMeta+A");
  await max.page.keyboard.insertText(JSON.stringify({ message: "from max", password: SECRET }));
  await max.ui.runTool();
  await expect(max.ui.result()).toContainText("from max");
  const maxCall = await max.context.request.get(`${sb.url}/api/v1/calls?limit=1`);
  const callId = (await maxCall.json()).items[0].id as string;

  // The owner removes the member; the member's next API call is refused.
  await page.goto(`${sb.url}/settings/members`);
  await page.getByRole("button", { name: /^Remove Max/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: /^Remove/ }).click();
  await expect(page.getByTestId("member-max@example.com")).toHaveCount(0);
  const afterRemoval = await max.context.request.get(`${sb.url}/api/v1/servers`);
  expect(afterRemoval.status()).toBe(403);
  await max.context.close();

  // The owner shares Max's call; a signed-out browser sees it with the secret masked.
  await page.goto(`${sb.url}/calls/${callId}`);
  await page.getByRole("button", { name: "Share", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Share this call" });
  await dialog.getByRole("button", { name: "Create link" }).click();
  const shareUrl = await dialog.getByRole("textbox", { name: "Share link" }).inputValue();
  const stranger = await browser.newContext();
  const anon = await stranger.newPage();
  expect((await anon.goto(shareUrl))?.status()).toBe(200);
  await expect(anon.getByTestId("shared-call")).toContainText("from max");
  await expect(anon.getByTestId("shared-call")).toContainText("[redacted]");
  expect(await anon.content()).not.toContain(SECRET);

  // Revoked, the link answers 410.
  await dialog.getByRole("button", { name: /^Revoke the link/ }).click();
  await page.getByRole("dialog", { name: "Revoke this share link?" }).getByRole("button", { name: "Revoke link" }).click();
  await expect(dialog.getByTestId("share-row")).toHaveCount(0);
  expect((await anon.reload())?.status()).toBe(410);
  await stranger.close();
  await vera.context.close();
});
