import { expect, test } from "@playwright/test";
import { joinByInvitation, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { expectAccessible, signedIn } from "./support";

// Settings → Members, SCIM provisioning: an owner makes a token in the browser, an identity provider
// provisions with it, the group → role mapping set in the browser decides the role, a revoked token is refused.
test.describe.configure({ mode: "serial" });

const USER_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PROVISIONED = "lin@example.com";

let sb: ConsoleHandle;
let owner: Awaited<ReturnType<typeof setupOwner>>;

test.beforeAll(async () => {
  sb = await startConsole();
  owner = await setupOwner(sb.url);
  // Provisioned people in no mapped group join as viewers, so the mapping's "member" is visible.
  const sso = await owner.api("PATCH", "/api/v1/workspace/sso", { ssoDefaultRole: "viewer" });
  expect(sso.status, JSON.stringify(sso.body)).toBe(200);
});
test.afterAll(async () => {
  await sb?.stop();
});

async function scim(method: string, path: string, token: string, body: unknown) {
  const res = await fetch(`${sb.url}/scim/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/scim+json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const userBody = { schemas: [USER_SCHEMA], userName: PROVISIONED, name: { givenName: "Lin", familyName: "Park" }, emails: [{ primary: true, value: PROVISIONED, type: "work" }], displayName: "Lin Park", active: true };

test("an owner creates a SCIM token, maps a group to a role and revokes the token", async ({ browser }) => {
  const { page, close } = await signedIn(browser, sb.url, owner, { width: 1440, height: 900 });
  await page.goto(`${sb.url}/settings/members`);
  const section = page.getByRole("region", { name: "SCIM provisioning" });
  await expect(section.getByLabel("SCIM base URL")).toHaveValue(`${sb.url}/scim/v2`);
  await expect(section.getByText("No SCIM token: provisioning is off.")).toBeVisible();

  await section.getByLabel("SCIM token name").fill("okta");
  await section.getByRole("button", { name: "Create SCIM token" }).click();
  await expect(section.getByText(/shown only once/)).toBeVisible();
  const secret = (await section.getByTestId("scim-token-secret").textContent())!.trim();
  expect(secret).toMatch(/^sbscim/);
  const tokens = section.getByRole("table", { name: "SCIM tokens" });
  await expect(tokens.getByRole("row", { name: /okta/ })).toContainText(secret.slice(0, 11));
  await expectAccessible(page);

  // The identity provider provisions a person with it; they join with the default role.
  const created = await scim("POST", "/Users", secret, userBody);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await page.reload();
  await expect(page.getByTestId(`member-${PROVISIONED}`).getByRole("combobox")).toHaveValue("viewer");

  // The mapping is saved from the browser and kept.
  await section.getByRole("button", { name: "Add a group" }).click();
  await section.getByLabel("Group 1 display name").fill("Engineering");
  await section.getByLabel("Role of group 1").selectOption("member");
  await expect(section.getByLabel("Role of group 1").locator("option")).toHaveText(["viewer", "auditor", "member", "admin"]);
  // A group listed twice cannot be saved; its row is removed again.
  await section.getByRole("button", { name: "Add a group" }).click();
  await section.getByLabel("Group 2 display name").fill("Engineering");
  await expect(section.getByText("The group “Engineering” is listed twice.")).toBeVisible();
  await expect(section.getByRole("button", { name: "Save mapping" })).toBeDisabled();
  await section.getByRole("button", { name: "Remove group 2 (Engineering)" }).click();
  await expect(section.getByLabel("Group 2 display name")).toHaveCount(0);
  await section.getByRole("button", { name: "Save mapping" }).click();
  await expect(section.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(section.getByLabel("Group 1 display name")).toHaveValue("Engineering");
  await expect(section.getByLabel("Role of group 1")).toHaveValue("member");
  expect((await owner.api("GET", "/api/v1/workspace")).body.workspace.scimGroupRoles).toEqual({ Engineering: "member" });

  // The identity provider puts the person in Engineering: the mapping makes them a member.
  const group = await scim("POST", "/Groups", secret, { schemas: [GROUP_SCHEMA], displayName: "Engineering", members: [{ value: created.body.id, display: PROVISIONED }] });
  expect(group.status, JSON.stringify(group.body)).toBe(201);
  await page.reload();
  await expect(page.getByTestId(`member-${PROVISIONED}`).getByRole("combobox")).toHaveValue("member");

  // Revoked in the browser: the same request is refused at once.
  await tokens.getByRole("button", { name: "Revoke the SCIM token okta" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke token" }).click();
  await expect(section.getByText("No SCIM token: provisioning is off.")).toBeVisible();
  expect((await scim("POST", "/Users", secret, userBody)).status).toBe(401);
  await close();
});

test("an admin does not see SCIM provisioning", async ({ browser }) => {
  await joinByInvitation(sb.url, owner.api, { email: "ada.admin@example.com", role: "admin", name: "Adele", password: "adele-password" });
  const { page, close } = await signedIn(browser, sb.url, { email: "ada.admin@example.com", password: "adele-password" }, { width: 1440, height: 900 });
  await page.goto(`${sb.url}/settings/members`);
  await expect(page.getByTestId(`member-${PROVISIONED}`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Invite", exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "SCIM provisioning" })).toHaveCount(0);
  await close();
});
