import { expect, test } from "@playwright/test";
import { startConsole, type ConsoleHandle } from "../support/console";
import { startEverything, type RunningServer } from "../support/servers";
import { CapabilitiesPage } from "../pages/capabilities-page";
import { ConsolePage } from "../pages/console-page";

const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };
const SHOTS = "docs/screenshots";

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let everything: RunningServer;

test.beforeAll(async () => {
  [sb, everything] = await Promise.all([startConsole(), startEverything("streamableHttp")]);
});
test.afterAll(async () => {
  await Promise.all([sb?.stop(), everything?.stop()]);
});

test("templates with completions, prompts with completions, live resource updates", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  const caps = new CapabilitiesPage(page);
  await ui.setup(OWNER);
  await ui.addServer("everything", everything.url);
  const serverId = new URL(page.url()).pathname.split("/").pop()!;

  // A resource template: the server suggests a value, it is picked, the URI expands, the read works.
  await caps.openTab("Templates");
  await caps.select("Dynamic Text Resource");
  await caps.pickSuggestion("resourceId", "42", "42");
  await expect(page.getByTestId("expanded-uri")).toHaveText("demo://resource/dynamic/text/42");
  await page.getByRole("button", { name: "Read", exact: true }).click();
  await expect(caps.result()).toContainText("Resource 42: This is a plaintext resource");
  await page.screenshot({ path: `${SHOTS}/templates.png` });

  // A prompt whose second argument's suggestions depend on the first.
  await caps.openTab("Prompts");
  await caps.select("completable-prompt");
  await caps.pickSuggestion("department", "Eng", "Engineering");
  await caps.field("name").focus();
  const names = page.getByRole("listbox", { name: "Suggestions for name" }).getByRole("option");
  await expect(names).toHaveText(["Alice", "Bob", "Charlie"]);
  await names.filter({ hasText: "Bob" }).click();
  await page.getByRole("button", { name: "Get prompt" }).click();
  const messages = caps.result().getByRole("list", { name: "Messages" });
  await expect(messages.getByRole("listitem").first()).toContainText("user");
  await expect(messages).toContainText("Please promote Bob to the head of the Engineering team.");

  // Another prompt returns an embedded resource: every message, each content type, by role.
  await caps.select("resource-prompt");
  await caps.pickSuggestion("resourceType", "T", "Text");
  await caps.field("resourceId").fill("3");
  await page.getByRole("button", { name: "Get prompt" }).click();
  await expect(messages.locator(":scope > li")).toHaveCount(2);
  await expect(messages).toContainText("This prompt includes the Text resource with id: 3");
  await expect(messages).toContainText("Resource 3: This is a plaintext resource");
  await page.screenshot({ path: `${SHOTS}/prompts.png` });

  // Subscribe to a resource; the server's update reaches the page, which reads it again.
  await caps.openTab("Resources");
  await caps.select("architecture.md");
  await page.getByRole("button", { name: "Subscribe", exact: true }).click();
  await expect(page.getByRole("button", { name: "Unsubscribe" })).toBeVisible();
  await expect(caps.result()).toHaveCount(0);
  const toggle = () =>
    page.request.post(`${sb.url}/api/v1/servers/${serverId}/tools/call`, {
      data: { name: "toggle-subscriber-updates", arguments: {} },
      headers: { origin: sb.url },
    });
  expect((await toggle()).ok()).toBe(true);
  await expect(page.getByTestId("resource-updated-at")).toContainText("Updated at");
  await expect(caps.result()).toContainText("architecture.md");
  await page.screenshot({ path: `${SHOTS}/resource-live-update.png` });
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("button", { name: "Subscribe", exact: true })).toBeVisible();
  expect((await toggle()).ok()).toBe(true);

  // The re-read was the console's own work: history leaves it out until asked for.
  const uri = "demo://resource/static/document/architecture.md";
  await page.goto(`${sb.url}/history?serverId=${serverId}&name=${encodeURIComponent(uri)}`);
  await expect(page.getByText("No calls match these filters")).toBeVisible();
  await page.getByLabel("Origin").selectOption("any");
  await expect(page.getByTestId("history-row").first()).toBeVisible();
  await expect(page.getByTestId("history-origin").first()).toHaveText("subscription");
});
