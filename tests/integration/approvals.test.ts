import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, onPostgres, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { insertMember, type TestDatabase } from "../support/database";
import { openEvents, type EventStream } from "../support/events";

type Api = ReturnType<typeof apiClient>;
interface ApprovalJson {
  id: string;
  name: string;
  status: string;
  params: unknown;
  reason: string | null;
  rule: { id: string; name: string };
  requester: { id: string | null; name: string | null };
  decidedBy: { name: string | null } | null;
  expiresAt: string;
}

/** Rules written as the policies domain stores them (its API is another slice's; the table is the contract). */
async function storeRules(db: TestDatabase, workspaceId: string, rules: unknown[]): Promise<void> {
  await db.run("INSERT INTO policy_set (workspace_id, version, default_effect, rules, updated_at) VALUES (?, 1, 'allow', ?, ?)", workspaceId, JSON.stringify(rules), new Date());
}

const RULES = [
  { id: "r-hello", name: "hello needs an OK", effect: "approve", tools: ["hello"], timeoutSeconds: 120, enabled: true },
  { id: "r-dice", name: "dice by members", effect: "approve", tools: ["roll-dice"], approvers: { roles: ["member"] }, timeoutSeconds: 120, enabled: true },
  { id: "r-add", name: "add times out", effect: "approve", tools: ["add"], timeoutSeconds: 2, enabled: true },
];

/** A call that waits for a person: started, not awaited, until the test has decided it. */
function heldCall(api: Api, serverId: string, name: string, args: Record<string, unknown>) {
  return api("POST", `/api/v1/servers/${serverId}/tools/call`, { name, arguments: args });
}

/** The pending approval of `name` whose arguments mention `marker`, once it is there. */
async function pendingOf(api: Api, name: string, marker: string): Promise<ApprovalJson> {
  let found: ApprovalJson | undefined;
  await waitFor(async () => {
    const items = (await api("GET", "/api/v1/approvals?status=pending")).body.items as ApprovalJson[];
    found = items.find((a) => a.name === name && JSON.stringify(a.params).includes(marker));
    return Boolean(found);
  }, 20_000);
  return found!;
}

describe("approvals: calls an approve rule holds until a person decides", () => {
  let sb: ConsoleHandle;
  let owner: Api;
  let admin: Api;
  let member: Api;
  let otherMember: Api;
  let viewer: Api;
  let demoId: string;
  let events: EventStream;

  beforeAll(async () => {
    sb = await startConsole();
    const setup = await setupOwner(sb.url);
    owner = setup.api;
    const workspaceId = setup.workspace.id as string;
    const add = async (userId: string, name: string, role: string) =>
      apiClient(sb.url, await insertMember(sb.db, { workspaceId, userId, name, email: `${userId}@example.com`, role }));
    [admin, member, otherMember, viewer] = await Promise.all([add("u-ann", "Ann Admin", "admin"), add("u-mo", "Mo Member", "member"), add("u-max", "Max Member", "member"), add("u-vi", "Vi Viewer", "viewer")]);
    await storeRules(sb.db, workspaceId, RULES);
    demoId = (await owner("POST", "/api/v1/servers/demo")).body.server.id;
    expect((await owner("POST", `/api/v1/servers/${demoId}/connect`)).status).toBe(200);
    events = await openEvents(sb.url, setup.token);
  });
  afterAll(async () => {
    events?.close();
    await sb?.stop();
  });

  it("holds the call until an admin approves it; nobody approves their own call, viewers only read", async () => {
    const call = heldCall(member, demoId, "hello", { name: "Ada" });
    const approval = await pendingOf(admin, "hello", "Ada");
    expect(approval).toMatchObject({ status: "pending", params: { name: "Ada" }, rule: { id: "r-hello", name: "hello needs an OK" }, requester: { id: "u-mo", name: "Mo Member" } });
    expect(new Date(approval.expiresAt).getTime()).toBeGreaterThan(Date.now() + 60_000);
    await events.next((e) => e.type === "approval" && e.approvalId === approval.id && e.status === "pending");

    const own = await member("POST", `/api/v1/approvals/${approval.id}/approve`, {});
    expect(own.status).toBe(403);
    expect(own.body.error.message).toMatch(/admins and owners may decide/);
    const byViewer = await viewer("POST", `/api/v1/approvals/${approval.id}/approve`, {});
    expect(byViewer.status).toBe(403);
    expect((await viewer("GET", "/api/v1/approvals?status=pending")).body.items.map((a: ApprovalJson) => a.id)).toContain(approval.id);

    const approved = await admin("POST", `/api/v1/approvals/${approval.id}/approve`, { reason: "fine" });
    expect(approved.status).toBe(200);
    expect(approved.body.approval).toMatchObject({ status: "approved", reason: "fine", decidedBy: { name: "Ann Admin" } });
    const res = await call;
    expect(res.status).toBe(200);
    expect(res.body.call.result.content[0].text).toMatch(/^Hello, Ada!/);

    const again = await owner("POST", `/api/v1/approvals/${approval.id}/deny`, { reason: "too late" });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/already approved by Ann Admin/);
  });

  it("refuses the requester's own approval even for an admin", async () => {
    const call = heldCall(admin, demoId, "hello", { name: "Self" });
    const approval = await pendingOf(owner, "hello", "Self");
    const self = await admin("POST", `/api/v1/approvals/${approval.id}/approve`, {});
    expect(self.status).toBe(403);
    expect(self.body.error.message).toMatch(/cannot approve your own call/);
    expect((await owner("POST", `/api/v1/approvals/${approval.id}/approve`, {})).status).toBe(200);
    expect((await call).status).toBe(200);
  });

  it("a denial needs a reason, and the caller gets it with the rule", async () => {
    const call = heldCall(member, demoId, "hello", { name: "Eve" });
    const approval = await pendingOf(admin, "hello", "Eve");
    const bare = await admin("POST", `/api/v1/approvals/${approval.id}/deny`, {});
    expect(bare.status).toBe(400);
    expect(JSON.stringify(bare.body)).toMatch(/A denial needs a reason/);
    expect((await admin("POST", `/api/v1/approvals/${approval.id}/deny`, { reason: "not on a Friday" })).status).toBe(200);
    const res = await call;
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/Denied by Ann Admin.*hello needs an OK.*not on a Friday/);
    const decided = (await viewer("GET", "/api/v1/approvals?status=decided")).body.items as ApprovalJson[];
    expect(decided[0]).toMatchObject({ id: approval.id, status: "denied", reason: "not on a Friday" });
  });

  it("lets the roles the rule names decide, and only them besides admins", async () => {
    const call = heldCall(member, demoId, "roll-dice", { count: 1, sides: 6 });
    const approval = await pendingOf(viewer, "roll-dice", "sides");
    expect((await otherMember("POST", `/api/v1/approvals/${approval.id}/approve`, {})).status).toBe(200);
    expect((await call).body.call.status).toBe("ok");
  });

  it("no decision within the rule's timeout is a denial, recorded as expired", async () => {
    const res = await heldCall(member, demoId, "add", { a: 1, b: 2 });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/No decision within 2 s.*add times out/);
    const expired = ((await admin("GET", "/api/v1/approvals?status=all")).body.items as ApprovalJson[]).find((a) => a.name === "add")!;
    expect(expired.status).toBe("expired");
    const late = await admin("POST", `/api/v1/approvals/${expired.id}/approve`, {});
    expect(late.status).toBe(409);
    expect(late.body.error.message).toMatch(/already expired/);
  });
});

describe.skipIf(!onPostgres)("approvals across two instances on PostgreSQL", () => {
  let a: ConsoleHandle;
  let b: ConsoleHandle;

  beforeAll(async () => {
    a = await startConsole();
    b = await startConsole({ databaseUrl: a.databaseUrl, join: true });
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it("a call held on one instance is released by a decision made through the other", async () => {
    const setup = await setupOwner(a.url);
    const workspaceId = setup.workspace.id as string;
    const memberToken = await insertMember(a.db, { workspaceId, userId: "u-mo", name: "Mo Member", email: "mo@example.com", role: "member" });
    await storeRules(a.db, workspaceId, RULES);
    const demoId = (await setup.api("POST", "/api/v1/servers/demo")).body.server.id as string;
    expect((await setup.api("POST", `/api/v1/servers/${demoId}/connect`)).status).toBe(200);
    const ownerB = apiClient(b.url, setup.token);

    const approved = heldCall(apiClient(a.url, memberToken), demoId, "hello", { name: "Bea" });
    const first = await pendingOf(ownerB, "hello", "Bea");
    expect((await ownerB("POST", `/api/v1/approvals/${first.id}/approve`, {})).status).toBe(200);
    expect((await approved).body.call.result.content[0].text).toMatch(/^Hello, Bea!/);

    const denied = heldCall(apiClient(a.url, memberToken), demoId, "hello", { name: "Cy" });
    const second = await pendingOf(ownerB, "hello", "Cy");
    expect((await ownerB("POST", `/api/v1/approvals/${second.id}/deny`, { reason: "through B" })).status).toBe(200);
    const res = await denied;
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/through B/);
  });
});
