import { expect, test, type Browser } from "@playwright/test";
import { apiClient, startConsole, type ConsoleHandle } from "../support/console";
import { ConsolePage } from "../pages/console-page";

const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };

test.describe.configure({ mode: "serial" });

let sb: ConsoleHandle;

test.beforeAll(async () => {
  // What a workspace's allowed networks may choose from (the settings step below saves two entries).
  sb = await startConsole({ env: { SWITCHBOARD_ALLOWED_NETWORKS: "10.0.0.0/8,*.corp.example" } });
});
test.afterAll(async () => {
  await sb?.stop();
});

async function freshPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

test("invite from the members page, accept as a new person, manage roles and workspace settings", async ({ page, browser }) => {
  const ui = new ConsolePage(page, sb.url);
  await ui.setup(OWNER);
  await ui.nav("Settings");
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Members" }).click();
  await expect(page).toHaveURL(/\/settings\/members$/);

  await page.getByLabel("Email address").fill("grace@example.com");
  await page.getByLabel("Role", { exact: true }).selectOption("viewer");
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  const link = (await page.getByTestId("invitation-url").textContent())!.trim();
  expect(link).toMatch(/\/invite\/sbi_/);
  await expect(page.getByText(/Not mailed: Outgoing mail is not configured/)).toBeVisible();
  await expect(page.getByRole("region", { name: "Pending invitations" }).getByText("grace@example.com")).toBeVisible();

  // A new person opens the link, sets name and password, and lands in the workspace.
  const grace = await freshPage(browser);
  await grace.page.goto(link);
  await expect(grace.page.getByRole("heading", { name: "Join Default" })).toBeVisible();
  await grace.page.getByLabel("Your name").fill("Grace");
  await grace.page.getByLabel("Password").fill("grace-password");
  await grace.page.getByRole("button", { name: "Create account and join" }).click();
  await expect(grace.page).toHaveURL(/\/servers$/);
  await expect(grace.page.getByTestId("workspace-name")).toHaveText("Default");
  await grace.page.goto(`${sb.url}/settings/members`);
  // A viewer sees the list, is not offered the Invite form, and controls are disabled with the reason on hover.
  await expect(grace.page.getByRole("button", { name: "Invite", exact: true })).toHaveCount(0);
  await expect(grace.page.locator("[data-role-gate='admin']").first()).toHaveAttribute("title", /^Viewers can't .* admins and the owner can/);

  // The used link now gets a clear page.
  await grace.page.goto(link);
  await expect(grace.page.getByRole("heading", { name: "This invitation has already been used" })).toBeVisible();

  // The owner promotes Grace; she sees her new role.
  await page.reload();
  await expect(page.getByRole("region", { name: "Pending invitations" }).getByText("None.")).toBeVisible();
  await page.getByLabel("Role of Grace").selectOption("member");
  await expect(page.getByLabel("Role of Grace")).toHaveValue("member");
  await grace.page.goto(`${sb.url}/settings/members`);
  await expect(grace.page.getByTestId("member-grace@example.com").getByRole("combobox")).toHaveValue("member");
  await grace.context.close();

  // A revoked link gets a clear page too.
  await page.getByLabel("Email address").fill("rev@example.com");
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  const revokedLink = (await page.getByTestId("invitation-url").textContent())!.trim();
  await page.getByRole("button", { name: "Revoke the invitation for rev@example.com" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke invitation" }).click();
  await expect(page.getByRole("region", { name: "Pending invitations" }).getByText("None.")).toBeVisible();
  const stranger = await freshPage(browser);
  await stranger.page.goto(revokedLink);
  await expect(stranger.page.getByRole("heading", { name: "This invitation was revoked" })).toBeVisible();
  await stranger.context.close();

  // Workspace settings: retention and public links.
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Workspace" }).click();
  await page.getByLabel("Keep calls for (days)").fill("90");
  await page.getByLabel(/Allow public share links/).uncheck();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Keep calls for (days)")).toHaveValue("90");
  await expect(page.getByLabel(/Allow public share links/)).not.toBeChecked();

  // Allowed networks: a malformed entry is shown and blocks saving; a valid list is kept.
  await expect(page.getByTestId("network-policy")).toContainText("bound to loopback");
  const networks = page.getByRole("textbox", { name: "Allowed networks" });
  await networks.fill("10.0.0.0/33");
  await expect(page.getByText("Not a CIDR, an address, a host name or *.domain: 10.0.0.0/33")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save allowed networks" })).toBeDisabled();
  await networks.fill("192.168.0.0/16");
  await page.getByRole("button", { name: "Save allowed networks" }).click();
  await expect(page.getByText(/"192\.168\.0\.0\/16" is outside what this console's operator allows/)).toBeVisible();
  await networks.fill("10.20.0.0/16\nmcp.corp.example");
  await page.getByRole("button", { name: "Save allowed networks" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(networks).toHaveValue("10.20.0.0/16\nmcp.corp.example");
});

test("an existing user signs in from the invitation and joins", async ({ browser }) => {
  // Grace (created above) is invited into a second workspace of Ada's.
  const signIn = await fetch(`${sb.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: sb.url },
    body: JSON.stringify({ email: OWNER.email, password: OWNER.password }),
  });
  const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const api = apiClient(sb.url);
  const lab = (await api("POST", "/api/v1/workspaces", { name: "Lab" }, { cookie })).body.workspace;
  const invited = await api("POST", "/api/v1/invitations", { email: "grace@example.com", role: "admin" }, { cookie, "x-workspace-id": lab.id });
  expect(invited.status).toBe(201);

  const { context, page } = await freshPage(browser);
  await page.goto(invited.body.invitation.url);
  await expect(page.getByRole("heading", { name: "Join Lab" })).toBeVisible();
  await page.getByRole("link", { name: "Sign in to join" }).click();
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await page.getByLabel("Email").fill("grace@example.com");
  await page.getByLabel("Password").fill("grace-password");
  await page.getByRole("button", { name: /sign in/i }).click();
  await expect(page).toHaveURL(/\/invite\/sbi_/);
  await page.getByRole("button", { name: "Join Lab" }).click();
  await expect(page).toHaveURL(/\/servers$/);
  await expect(page.getByRole("combobox").first()).toHaveValue(lab.id);

  // Leaving takes her back to her other workspace.
  await page.goto(`${sb.url}/settings/members`);
  await page.getByRole("button", { name: "Leave workspace" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Leave workspace" }).click();
  await expect(page).toHaveURL(/\/servers$/);
  await expect(page.getByTestId("workspace-name")).toHaveText("Default");
  await context.close();
});
