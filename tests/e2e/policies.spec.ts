import { expect, test, type Browser, type Page } from "@playwright/test";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { ConsolePage } from "../pages/console-page";
import { signedIn } from "./support";

// The Policies page (docs/governance.md): an admin writes an argument rule, the tester names the
// deciding rule, the default and a rollback change the answers; a viewer reads it all, read-only.

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;
let owner: Awaited<ReturnType<typeof setupOwner>>;
let demoId = "";

test.beforeAll(async () => {
  sb = await startConsole();
  owner = await setupOwner(sb.url);
  demoId = (await owner.api("POST", "/api/v1/servers/demo")).body.server.id;
});
test.afterAll(async () => {
  await sb?.stop();
});

/** Asks the tester about `hello` on the demo server with these arguments, as a member. */
async function ask(page: Page, args: unknown) {
  const tester = page.getByRole("form", { name: "Policy tester" });
  await tester.getByLabel("Caller").selectOption("role");
  await tester.getByLabel("Role", { exact: true }).selectOption("member");
  await tester.getByLabel("Server").selectOption(demoId);
  await tester.getByLabel("Tool").fill("hello");
  await tester.getByLabel("Arguments (JSON)").fill(JSON.stringify(args));
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/v1/policy-rules/test") && r.request().method() === "POST");
  await tester.getByRole("button", { name: "Test" }).click();
  expect((await answered).status()).toBe(200);
  return page.getByTestId("policy-decision");
}

test("an admin writes an argument rule, tests calls against it, denies by default and rolls back", async ({ page }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.signIn(owner);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Policies" }).click();
  await expect(page).toHaveURL(/\/policies$/);
  await expect(page.getByRole("heading", { name: "Policies", level: 1 })).toBeVisible();
  await expect(page.getByTestId("policy-default")).toHaveText("allow");
  await expect(page.getByText("No rules yet")).toBeVisible();

  await page.getByRole("button", { name: "New rule" }).click();
  const dialog = page.getByRole("dialog", { name: "New rule" });
  await dialog.getByLabel("Name", { exact: true }).fill("No reading /etc");
  await dialog.getByRole("radio", { name: "Deny" }).check();
  await dialog.getByRole("group", { name: "Servers" }).getByRole("checkbox", { name: "demo" }).check();
  await dialog.getByLabel("Tools", { exact: true }).fill("hello");
  await dialog.getByRole("button", { name: "Add condition" }).click();
  await dialog.getByLabel("Path of condition 1").fill("/path");
  await dialog.getByLabel("Operator of condition 1").selectOption("matches");
  // A pattern RE2 refuses: the API's message is shown at the condition's value.
  await dialog.getByLabel("Value of condition 1").fill("(?=etc)");
  await dialog.getByRole("button", { name: "Create rule" }).click();
  await expect(dialog.getByLabel("Value of condition 1")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByLabel("Value of condition 1")).toHaveAccessibleDescription(/invalid pattern/);
  await dialog.getByLabel("Value of condition 1").fill("^/etc/");
  await dialog.getByRole("button", { name: "Create rule" }).click();
  await expect(dialog).toBeHidden();

  const rule = page.getByTestId("policy-rule");
  await expect(rule).toHaveCount(1);
  await expect(rule.getByTestId("rule-effect")).toHaveText("deny");
  await expect(rule.getByTestId("rule-words")).toHaveText('tool hello on demo, for everyone, when /path matches "^/etc/".');
  const ruleId = (await rule.getAttribute("id"))!.replace(/^rule-/, "");

  // The tester: /tmp/a falls to the default (allow), /etc/passwd is denied by the rule, linked.
  const allowed = await ask(page, { path: "/tmp/a" });
  await expect(allowed).toHaveAttribute("data-decision", "allow");
  await expect(allowed.getByTestId("deciding-rule")).toHaveText("decided by the workspace default");
  const denied = await ask(page, { path: "/etc/passwd" });
  await expect(denied).toHaveAttribute("data-decision", "deny");
  await expect(denied.getByRole("link", { name: "No reading /etc" })).toHaveAttribute("href", `#rule-${ruleId}`);
  await expect(denied).toContainText('rule "No reading /etc"');
  await expect(denied).toContainText("/path");

  // Deny by default: the same /tmp/a call is now refused by the default.
  await page.getByRole("button", { name: "Deny by default" }).click();
  await expect(page.getByTestId("policy-default")).toHaveText("deny");
  const refused = await ask(page, { path: "/tmp/a" });
  await expect(refused).toHaveAttribute("data-decision", "deny");
  await expect(refused.getByTestId("deciding-rule")).toHaveText("decided by the workspace default");

  // Versions: the rule (v1), the default (v2); rolling back to v1 allows by default again, as v3.
  const versions = page.getByRole("table", { name: "Policy versions" });
  await expect(versions.getByTestId("policy-version")).toHaveCount(2);
  await expect(versions.getByTestId("policy-version").first()).toContainText("default set to deny");
  await versions.getByRole("button", { name: "Roll back to version 1" }).click();
  const confirm = page.getByRole("dialog", { name: "Roll back to version 1?" });
  await confirm.getByRole("button", { name: "Roll back" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId("policy-default")).toHaveText("allow");
  await expect(versions.getByTestId("policy-version")).toHaveCount(3);
  await expect(versions.getByTestId("policy-version").first()).toContainText("rolled back to version 1");
  await expect(page.getByTestId("policy-rule")).toHaveCount(1);
  const again = await ask(page, { path: "/tmp/a" });
  await expect(again).toHaveAttribute("data-decision", "allow");

  // Turning the rule off is a version too; the rule stays listed, marked off.
  await rule.getByRole("switch", { name: "No reading /etc enabled" }).click();
  await expect(rule).toHaveAttribute("data-enabled", "false");
  await expect(versions.getByTestId("policy-version").first()).toContainText("disabled");
  await rule.getByRole("switch", { name: "No reading /etc enabled" }).click();
  await expect(rule).toHaveAttribute("data-enabled", "true");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(rule).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test("a viewer reads the rules and the versions, and every control says why it is off", async ({ browser }) => {
  const page = await viewerPage(browser);
  await page.goto(`${sb.url}/policies`);
  await expect(page.getByText("Read-only for you")).toBeVisible();
  await expect(page.getByText("Viewers can't change policies")).toBeVisible();
  await expect(page.getByTestId("policy-rule")).toHaveCount(1);
  await expect(page.getByRole("table", { name: "Policy versions" }).getByTestId("policy-version")).toHaveCount(5);
  for (const control of [page.getByRole("button", { name: "New rule" }), page.getByRole("button", { name: "Deny by default" }), page.getByRole("switch", { name: "No reading /etc enabled" }), page.getByRole("button", { name: "Delete No reading /etc" }), page.getByRole("button", { name: "Roll back to version 1" })]) {
    await expect(control).toHaveAttribute("aria-disabled", "true");
  }
  // Activated by keyboard, a refused control shows why instead of opening anything.
  await page.getByRole("button", { name: "New rule" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "New rule" })).toHaveCount(0);
  await expect(page.getByTestId("disabled-reason").filter({ hasText: /Viewers can't/ }).first()).toBeVisible();
  await page.context().close();
});

async function viewerPage(browser: Browser) {
  const invitation = (await owner.api("POST", "/api/v1/invitations", { email: "vera@example.com", role: "viewer" })).body.invitation;
  const token = new URL(invitation.url).pathname.split("/").pop();
  expect((await apiClient(sb.url)("POST", "/api/v1/invitations/accept", { token, name: "Vera Viewer", password: "viewer password 123" })).status).toBeLessThan(300);
  // 1440×900: the config's viewport, which browser.newContext() gave this page before.
  const { page } = await signedIn(browser, sb.url, { email: "vera@example.com", password: "viewer password 123" }, { width: 1440, height: 900 });
  return page;
}
