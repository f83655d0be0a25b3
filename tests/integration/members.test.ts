import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { linkIn, startSmtp } from "../support/smtp";

const tokenOf = (url: string) => url.split("/invite/")[1];

describe("members, invitations and workspace settings", () => {
  let sb: ConsoleHandle;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let owner: Awaited<ReturnType<typeof setupOwner>>;
  let ownerCookie: string;
  const anon = () => apiClient(sb.url);

  async function signIn(email: string, password: string): Promise<string> {
    const res = await fetch(`${sb.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url },
      body: JSON.stringify({ email, password }),
    });
    expect(res.status, `sign in ${email}`).toBe(200);
    return cookieOf(res);
  }

  function cookieOf(res: Response): string {
    return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  }

  async function accept(body: Record<string, unknown>, cookie?: string) {
    const res = await fetch(`${sb.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: sb.url, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json(), cookie: cookieOf(res) };
  }

  /** Invites an address, accepts as a new account, and returns that person's cookie and API token. */
  async function join(api: ReturnType<typeof apiClient>, email: string, role: string, name: string) {
    const invited = await api("POST", "/api/v1/invitations", { email, role });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const accepted = await accept({ token: tokenOf(invited.body.invitation.url), name, password: "password-" + name });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const workspaceId = accepted.body.workspace.id as string;
    const token = await anon()("POST", "/api/v1/tokens", { name: "t" }, { cookie: accepted.cookie, "x-workspace-id": workspaceId });
    return { userId: accepted.body.user.id as string, cookie: accepted.cookie, api: apiClient(sb.url, token.body.secret), token: token.body.secret as string };
  }

  function auditRows(action: string) {
    return sb.db.all<{ workspace_id: string | null; actor_id: string; target_id: string; target_name: string; details: string }>("SELECT * FROM audit_event WHERE action = ? ORDER BY id", action);
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    sb = await startConsole({ env: { SWITCHBOARD_SMTP_URL: smtp.url, SWITCHBOARD_MAIL_FROM: "Switchboard <sb@example.test>" } });
    owner = await setupOwner(sb.url);
    ownerCookie = await signIn("ada@example.com", "correct horse battery");
  });
  afterAll(async () => {
    await sb?.stop();
    await smtp?.close();
  });

  it("invites by email: the mail carries the link, the preview describes it, a new person accepts and is signed in", async () => {
    const created = await owner.api("POST", "/api/v1/invitations", { email: "Grace@Example.com", role: "member" });
    expect(created.status).toBe(201);
    const invitation = created.body.invitation;
    expect(invitation).toMatchObject({ email: "grace@example.com", role: "member", emailed: true });
    expect(invitation.url).toMatch(new RegExp(`^${sb.url}/invite/sbi_`));
    const ttl = Date.parse(invitation.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(6.9 * 86_400_000);
    expect(ttl).toBeLessThan(7.1 * 86_400_000);

    await waitFor(() => smtp.messages.some((m) => m.to.includes("grace@example.com")));
    const mail = smtp.messages.find((m) => m.to.includes("grace@example.com"))!;
    expect(mail.raw).toMatch(/Subject: Ada Owner invited you to Default on Switchboard/);
    expect(linkIn(mail.raw)).toBe(invitation.url);

    const pending = await owner.api("GET", "/api/v1/invitations");
    expect(pending.body.items).toEqual([expect.objectContaining({ id: invitation.id, url: invitation.url, invitedBy: expect.objectContaining({ name: "Ada Owner" }) })]);
    // The token is kept hashed and encrypted, never in clear.
    expect(JSON.stringify(await sb.db.all("SELECT * FROM invitation"))).not.toContain(tokenOf(invitation.url));

    const token = tokenOf(linkIn(mail.raw)!);
    const preview = await anon()("POST", "/api/v1/invitations/preview", { token });
    expect(preview.status).toBe(200);
    expect(preview.body.invitation).toMatchObject({ workspace: { name: "Default" }, inviter: { name: "Ada Owner" }, role: "member", email: "grace@example.com", state: "valid", accountExists: false, session: null });

    const accepted = await accept({ token, name: "Grace", password: "grace-password" });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ user: { name: "Grace", email: "grace@example.com" }, workspace: { id: owner.workspace.id, name: "Default" }, role: "member" });
    expect(accepted.cookie).toContain("session_token");
    const me = await anon()("GET", "/api/v1/me", undefined, { cookie: accepted.cookie });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: { email: "grace@example.com" }, workspace: { id: owner.workspace.id }, role: "member" });

    await waitFor(async () => {
      const members = (await owner.api("GET", "/api/v1/members")).body.items as { email: string; role: string; lastActiveAt: string | null }[];
      const grace = members.find((m) => m.email === "grace@example.com");
      return grace?.role === "member" && grace.lastActiveAt !== null;
    });
    expect((await owner.api("GET", "/api/v1/invitations")).body.items).toEqual([]);

    // Used: the preview says so, a second acceptance is 410 with the error shape.
    expect((await anon()("POST", "/api/v1/invitations/preview", { token })).body.invitation.state).toBe("used");
    const again = await accept({ token, name: "Mallory", password: "mallory-password" });
    expect(again.status).toBe(410);
    expect(again.body.error.code).toBe("gone");
    expect((await auditRows("invitation.created")).at(-1)).toMatchObject({ target_id: invitation.id, target_name: "grace@example.com" });
    expect((await auditRows("invitation.accepted")).at(-1)).toMatchObject({ workspace_id: owner.workspace.id, actor_id: accepted.body.user.id });

    // Inviting someone who is already a member is a clear conflict.
    const dup = await owner.api("POST", "/api/v1/invitations", { email: "grace@example.com", role: "viewer" });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toMatch(/already a member/);
  });

  it("lets an existing account join with its session, and only the invited address", async () => {
    const hopper = await join(owner.api, "hopper@example.com", "viewer", "Hopper");
    const lab = (await hopper.api("POST", "/api/v1/workspaces", { name: "Lab" })).body.workspace;
    const labToken = (await anon()("POST", "/api/v1/tokens", { name: "lab" }, { cookie: hopper.cookie, "x-workspace-id": lab.id })).body.secret;
    const labApi = apiClient(sb.url, labToken);
    const created = await labApi("POST", "/api/v1/invitations", { email: "ada@example.com", role: "admin" });
    const token = tokenOf(created.body.invitation.url);

    const preview = await anon()("POST", "/api/v1/invitations/preview", { token }, { cookie: ownerCookie });
    expect(preview.body.invitation).toMatchObject({ workspace: { name: "Lab" }, inviter: { name: "Hopper" }, accountExists: true, session: { email: "ada@example.com", alreadyMember: false } });

    const asNew = await accept({ token, name: "Ada Again", password: "another-password" });
    expect(asNew.status).toBe(409);
    expect(asNew.body.error.message).toMatch(/sign in/);
    const noSession = await accept({ token });
    expect(noSession.status).toBe(401);
    const wrongPerson = await accept({ token }, hopper.cookie);
    expect(wrongPerson.status).toBe(403);
    expect(wrongPerson.body.error.message).toMatch(/for ada@example.com/);

    const joined = await accept({ token }, ownerCookie);
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ user: { email: "ada@example.com" }, workspace: { id: lab.id, name: "Lab" }, role: "admin" });
    const me = await anon()("GET", "/api/v1/me", undefined, { cookie: ownerCookie, "x-workspace-id": lab.id });
    expect(me.body.role).toBe("admin");
    const after = await anon()("POST", "/api/v1/invitations/preview", { token }, { cookie: ownerCookie });
    expect(after.body.invitation).toMatchObject({ state: "used", session: { alreadyMember: true } });
  });

  it("answers 410 for revoked and expired links, and 404 for unknown ones", async () => {
    const revoked = (await owner.api("POST", "/api/v1/invitations", { email: "rev@example.com", role: "viewer" })).body.invitation;
    expect((await owner.api("DELETE", `/api/v1/invitations/${revoked.id}`)).status).toBe(204);
    expect((await owner.api("DELETE", `/api/v1/invitations/${revoked.id}`)).status).toBe(404);
    expect((await anon()("POST", "/api/v1/invitations/preview", { token: tokenOf(revoked.url) })).body.invitation.state).toBe("revoked");
    const revokedAccept = await accept({ token: tokenOf(revoked.url), name: "Rev", password: "rev-password" });
    expect(revokedAccept.status).toBe(410);
    expect(revokedAccept.body.error).toMatchObject({ code: "gone", message: expect.stringMatching(/revoked/) });
    expect((await auditRows("invitation.revoked")).at(-1)).toMatchObject({ target_id: revoked.id });

    const expired = (await owner.api("POST", "/api/v1/invitations", { email: "old@example.com", role: "viewer" })).body.invitation;
    await sb.db.run("UPDATE invitation SET expires_at = ? WHERE id = ?", new Date(Date.now() - 60_000), expired.id);
    expect((await anon()("POST", "/api/v1/invitations/preview", { token: tokenOf(expired.url) })).body.invitation.state).toBe("expired");
    const expiredAccept = await accept({ token: tokenOf(expired.url), name: "Old", password: "old-password" });
    expect(expiredAccept.status).toBe(410);
    expect(expiredAccept.body.error).toMatchObject({ code: "gone", message: expect.stringMatching(/expired/) });
    expect((await owner.api("GET", "/api/v1/invitations")).body.items.map((i: { id: string }) => i.id)).not.toContain(expired.id);

    expect((await anon()("POST", "/api/v1/invitations/preview", { token: "sbi_no-such-invitation-token" })).status).toBe(404);
  });

  it("enforces who may change whom, and always keeps an owner", async () => {
    const alan = await join(owner.api, "alan@example.com", "admin", "Alan");
    const lin = await join(owner.api, "lin@example.com", "member", "Lin");
    const ownerId = (await owner.api("GET", "/api/v1/me")).body.user.id;

    const expectForbidden = (res: { status: number; body: { error?: { code: string } } }) => {
      expect(res.status).toBe(403);
      expect(res.body.error?.code).toBe("forbidden");
    };
    expectForbidden(await alan.api("POST", "/api/v1/invitations", { email: "boss@example.com", role: "owner" }));
    expect((await alan.api("POST", "/api/v1/invitations", { email: "peer@example.com", role: "admin" })).status).toBe(201);
    expectForbidden(await alan.api("PATCH", `/api/v1/members/${ownerId}`, { role: "member" }));
    expectForbidden(await alan.api("DELETE", `/api/v1/members/${ownerId}`));
    expectForbidden(await alan.api("PATCH", `/api/v1/members/${lin.userId}`, { role: "owner" }));
    // Lin's token verdict is cached now, as a member's.
    expect((await lin.api("GET", "/api/v1/invitations")).status).toBe(403);
    expect((await lin.api("POST", "/api/v1/servers/nope/ping")).status).toBe(404);
    const demoted = await alan.api("PATCH", `/api/v1/members/${lin.userId}`, { role: "viewer" });
    expect(demoted.status).toBe(200);
    expect(demoted.body.member).toMatchObject({ id: lin.userId, role: "viewer" });
    expect((await auditRows("member.role_changed")).at(-1)).toMatchObject({ target_id: lin.userId, details: JSON.stringify({ from: "member", to: "viewer" }) });
    // Lin's token acts as a viewer at once (no stale cached role).
    expectForbidden(await lin.api("POST", "/api/v1/servers/nope/ping"));
    expectForbidden(await lin.api("PATCH", `/api/v1/members/${alan.userId}`, { role: "viewer" }));
    expectForbidden(await lin.api("GET", "/api/v1/invitations"));

    // The last owner can be neither demoted nor leave.
    const selfDemote = await owner.api("PATCH", `/api/v1/members/${ownerId}`, { role: "admin" });
    expect(selfDemote.status).toBe(409);
    expect(selfDemote.body.error.message).toMatch(/last owner/);
    expect((await owner.api("POST", "/api/v1/members/leave")).status).toBe(409);
    expect((await owner.api("DELETE", `/api/v1/members/${ownerId}`)).status).toBe(409);

    // With a second owner, the first may step down; then the new owner is the last one.
    expect((await owner.api("PATCH", `/api/v1/members/${alan.userId}`, { role: "owner" })).body.member.role).toBe("owner");
    expect((await owner.api("PATCH", `/api/v1/members/${ownerId}`, { role: "admin" })).body.member.role).toBe("admin");
    expect((await alan.api("POST", "/api/v1/members/leave")).status).toBe(409);
    expect((await alan.api("PATCH", `/api/v1/members/${ownerId}`, { role: "owner" })).status).toBe(200);
    expect((await owner.api("GET", "/api/v1/me")).body.role).toBe("owner");
  });

  it("stops a removed member's token and session at once", async () => {
    const kim = await join(owner.api, "kim@example.com", "member", "Kim");
    expect((await kim.api("GET", "/api/v1/servers")).status).toBe(200);
    expect((await anon()("GET", "/api/v1/servers", undefined, { cookie: kim.cookie })).status).toBe(200);

    expect((await owner.api("DELETE", `/api/v1/members/${kim.userId}`)).status).toBe(204);
    const byToken = await kim.api("GET", "/api/v1/servers");
    expect(byToken.status).toBe(401);
    expect(byToken.body.error.code).toBe("unauthorized");
    const bySession = await anon()("GET", "/api/v1/servers", undefined, { cookie: kim.cookie, "x-workspace-id": owner.workspace.id });
    expect(bySession.status).toBe(403);
    expect(bySession.body.error.code).toBe("forbidden");
    expect((await anon()("GET", "/api/v1/servers", undefined, { cookie: kim.cookie })).status).toBe(403);

    const tokens = await sb.db.all<{ revoked_at: unknown }>("SELECT revoked_at FROM api_token WHERE user_id = ?", kim.userId);
    expect(tokens.length).toBeGreaterThan(0);
    expect(tokens.every((t) => t.revoked_at !== null)).toBe(true);
    expect((await owner.api("GET", "/api/v1/members")).body.items.map((m: { id: string }) => m.id)).not.toContain(kim.userId);
    expect((await auditRows("member.removed")).at(-1)).toMatchObject({ target_id: kim.userId, target_name: "kim@example.com" });

    // Leaving works the same way for the one who leaves.
    const lee = await join(owner.api, "lee@example.com", "viewer", "Lee");
    expect((await lee.api("POST", "/api/v1/members/leave")).status).toBe(204);
    expect((await lee.api("GET", "/api/v1/servers")).status).toBe(401);
    expect((await auditRows("member.left")).at(-1)).toMatchObject({ target_id: lee.userId });
  });

  it("transfers ownership: the target becomes owner, the caller an admin", async () => {
    const joan = await join(owner.api, "joan@example.com", "member", "Joan");
    const ownerId = (await owner.api("GET", "/api/v1/me")).body.user.id;
    expect((await joan.api("POST", "/api/v1/members/transfer", { userId: ownerId })).status).toBe(403);

    const moved = await owner.api("POST", "/api/v1/members/transfer", { userId: joan.userId });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ owner: { id: joan.userId, role: "owner" }, previousOwner: { id: ownerId, role: "admin" } });
    expect((await joan.api("GET", "/api/v1/me")).body.role).toBe("owner");
    const notOwner = await owner.api("POST", "/api/v1/members/transfer", { userId: joan.userId });
    expect(notOwner.status).toBe(403);
    expect(notOwner.body.error.code).toBe("forbidden");
    expect((await auditRows("member.ownership_transferred")).at(-1)).toMatchObject({ actor_id: ownerId, target_id: joan.userId });

    // And back, so the owner's token stays an owner's for the tests below.
    expect((await joan.api("POST", "/api/v1/members/transfer", { userId: ownerId })).status).toBe(200);
  });

  it("reads and changes workspace settings, audited, and deletes a workspace only with its name", async () => {
    const settings = await owner.api("GET", "/api/v1/workspace");
    expect(settings.body.workspace).toMatchObject({ name: "Default", slug: "default", retentionDays: null, publicSharesEnabled: true, redactionKeysDefault: true });
    expect(settings.body.workspace.redactionKeys).toContain("password");
    expect(settings.body.workspace.counts.members).toBeGreaterThan(3);

    const changed = await owner.api("PATCH", "/api/v1/workspace", { name: "Team", retentionDays: 30, publicSharesEnabled: false, redactionKeys: ["password", "X-Session", "x-session"] });
    expect(changed.status).toBe(200);
    expect(changed.body.workspace).toMatchObject({ name: "Team", retentionDays: 30, publicSharesEnabled: false, redactionKeysDefault: false });
    // The workspace's names add to the default list, which always applies.
    expect(changed.body.workspace.redactionKeys).toEqual([...settings.body.workspace.redactionKeys, "X-Session"]);
    const audited = JSON.parse((await auditRows("workspace.settings_changed")).at(-1)!.details);
    expect(audited.changes).toMatchObject({ name: { from: "Default", to: "Team" }, retentionDays: { from: null, to: 30 }, publicSharesEnabled: { from: true, to: false } });
    for (const bad of [{ retentionDays: 0 }, { retentionDays: 3651 }, { name: "" }]) {
      const res = await owner.api("PATCH", "/api/v1/workspace", bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBe("bad_request");
    }
    const reset = await owner.api("PATCH", "/api/v1/workspace", { retentionDays: null, redactionKeys: null });
    expect(reset.body.workspace).toMatchObject({ retentionDays: null, redactionKeysDefault: true });
    const viewer = await join(owner.api, "vera@example.com", "viewer", "Vera");
    expect((await viewer.api("GET", "/api/v1/workspace")).status).toBe(200);
    expect((await viewer.api("PATCH", "/api/v1/workspace", { name: "Mine" })).status).toBe(403);
    expect((await viewer.api("DELETE", "/api/v1/workspace", { confirm: "Team" })).status).toBe(403);

    // Deleting: the exact name, and never the caller's only workspace.
    const solo = (await viewer.api("POST", "/api/v1/workspaces", { name: "Solo" })).body.workspace;
    const veraSolo = apiClient(sb.url, (await anon()("POST", "/api/v1/tokens", { name: "s" }, { cookie: viewer.cookie, "x-workspace-id": solo.id })).body.secret);
    expect((await veraSolo("DELETE", "/api/v1/workspace", { confirm: "solo" })).status).toBe(400);
    expect((await viewer.api("POST", "/api/v1/members/leave")).status).toBe(204);
    const only = await veraSolo("DELETE", "/api/v1/workspace", { confirm: "Solo" });
    expect(only.status).toBe(409);
    expect(only.body.error.message).toMatch(/only workspace/);
    expect((await veraSolo("POST", "/api/v1/workspaces", { name: "Solo 2" })).status).toBe(201);
    expect((await veraSolo("DELETE", "/api/v1/workspace", { confirm: "Solo" })).status).toBe(204);
    expect((await veraSolo("GET", "/api/v1/workspace")).status).toBe(401);
    expect(Number((await sb.db.get<{ n: number }>("SELECT count(*) AS n FROM workspace WHERE id = ?", solo.id))!.n)).toBe(0);
    expect((await auditRows("workspace.deleted")).at(-1)).toMatchObject({ workspace_id: null, target_id: solo.id, target_name: "Solo" });
  });

  it("still creates the invitation when mail cannot be sent, and says why", async () => {
    await smtp.close();
    const res = await owner.api("POST", "/api/v1/invitations", { email: "offline@example.com", role: "viewer" });
    expect(res.status).toBe(201);
    expect(res.body.invitation).toMatchObject({ email: "offline@example.com", emailed: false, emailError: expect.stringMatching(/mail server/) });
    expect((await anon()("POST", "/api/v1/invitations/preview", { token: tokenOf(res.body.invitation.url) })).body.invitation.state).toBe("valid");
  });
});
