import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { insertMember } from "../support/database";
import { openEvents, type EventStream } from "../support/events";
import { startEverything, type RunningServer } from "../support/servers";

type Api = ReturnType<typeof apiClient>;

/**
 * Alerts reach people inside the console: each person's unread count (the alerts their role may act
 * on since they last opened Alerts), the mark-read marker, and the live `alert` event the notice
 * reads. Also "require SSO"'s preview of the members it would lock out.
 */
describe("unread alerts, the live notice's event, and the SSO lock-out preview", () => {
  let sb: ConsoleHandle;
  let everything: RunningServer;
  let owner: Awaited<ReturnType<typeof setupOwner>>;
  let stream: EventStream;
  const as: Record<"admin" | "member" | "viewer" | "outsider" | "linked", Api> = {} as never;
  const ids: Record<string, string> = {};
  let n = 0;
  /** An alert row as lib/watch/alerts records it, a few ms after the last (the count compares times). */
  const insertAlert = async (event: string) => {
    const id = `alert-${++n}`;
    await sb.db.run("INSERT INTO alert (id, workspace_id, event, text, path, created_at) VALUES (?, ?, ?, ?, '/alerts', ?)", id, owner.workspace.id, event, `${event} ${n}`, new Date(Date.now() + n * 10));
    return id;
  };
  const unread = async (api: Api) => {
    const res = await api("GET", "/api/v1/alerts/unread");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.unread as { count: number; seenAt: string | null };
  };

  beforeAll(async () => {
    everything = await startEverything("streamableHttp");
    // An operator identity provider for example.com: the workspace settings preview whom "require SSO" locks out (no IdP is contacted for that).
    sb = await startConsole({
      env: {
        SWITCHBOARD_MONITOR_POLL_MS: "200",
        SWITCHBOARD_SSO_ISSUER: "https://idp.example.com",
        SWITCHBOARD_SSO_CLIENT_ID: "switchboard",
        SWITCHBOARD_SSO_CLIENT_SECRET: "not-used-here",
        SWITCHBOARD_SSO_DOMAIN: "example.com",
      },
    });
    owner = await setupOwner(sb.url);
    for (const [key, role, email] of [
      ["admin", "admin", "admin@example.com"],
      ["member", "member", "member@example.com"],
      ["viewer", "viewer", "viewer@example.com"],
      ["outsider", "member", "olga@elsewhere.org"],
      ["linked", "member", "lin@partner.org"],
    ] as const) {
      const token = await insertMember(sb.db, { workspaceId: owner.workspace.id, userId: `user-${key}`, name: `A ${key}`, email, role });
      as[key] = apiClient(sb.url, token);
      ids[key] = token;
    }
    stream = await openEvents(sb.url, ids.viewer!);
  }, 120_000);
  afterAll(async () => {
    stream?.close();
    await Promise.all([sb?.stop(), everything?.stop()]);
  });

  it("a failing monitor's alert is sent live with what the notice shows, and counts for members and up, never for viewers", async () => {
    const serverId = (await owner.api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    const step = { serverId, method: "tools/call", name: "echo", arguments: { message: "x" }, assert: [{ kind: "json", path: "/content/0/text", equals: "never" }] };
    const collectionId = (await owner.api("POST", "/api/v1/collections", { name: "failing", steps: [step] })).body.collection.id;
    for (const api of [owner.api, as.admin, as.member, as.viewer]) expect(await unread(api)).toEqual({ count: 0, seenAt: null });

    const monitor = (await owner.api("POST", "/api/v1/monitors", { collectionId, name: "Echo watch", schedule: { everySeconds: 5 } })).body.monitor;
    // Viewers get the event too (the stream is the workspace's); the notice is for those who may act on it.
    const event = await stream.next((e) => e.type === "alert", { timeoutMs: 60_000 });
    expect((await owner.api("PATCH", `/api/v1/monitors/${monitor.id}`, { enabled: false })).status).toBe(200);
    expect(event).toEqual({ type: "alert", alertId: expect.any(String), event: "failing", text: expect.stringContaining('Monitor "Echo watch" is failing'), path: expect.stringMatching(/^\/runs\//), createdAt: expect.any(String) });
    const listed = (await owner.api("GET", "/api/v1/alerts")).body.items;
    expect(listed.map((a: { id: string }) => a.id)).toEqual([event.alertId]);
    expect(listed[0].createdAt).toBe(event.createdAt);

    expect((await unread(owner.api)).count).toBe(1);
    expect((await unread(as.admin)).count).toBe(1);
    expect((await unread(as.member)).count).toBe(1);
    expect((await unread(as.viewer)).count).toBe(0);
  }, 90_000);

  it("a breaking change counts for those who may edit servers; a recovery counts for nobody", async () => {
    await insertAlert("breaking-change");
    await insertAlert("recovered");
    expect((await unread(owner.api)).count).toBe(2);
    expect((await unread(as.admin)).count).toBe(2);
    expect((await unread(as.member)).count).toBe(1);
    expect((await unread(as.viewer)).count).toBe(0);
  });

  it("marking read moves each person's own marker forward only, and tells their other tabs", async () => {
    const from = stream.events.length;
    const newest = (await owner.api("GET", "/api/v1/alerts")).body.items[0];
    const marked = await as.admin("POST", "/api/v1/alerts/read", { upTo: newest.id });
    expect(marked.status, JSON.stringify(marked.body)).toBe(200);
    expect(marked.body.unread).toEqual({ count: 0, seenAt: newest.createdAt });
    expect(await stream.next((e) => e.type === "alerts_seen", { from })).toEqual({ type: "alerts_seen", userId: "user-admin" });
    // Another person's count is theirs.
    expect((await unread(owner.api)).count).toBe(2);

    // An older alert marked later (a stale tab) does not bring read ones back.
    const oldest = (await owner.api("GET", "/api/v1/alerts")).body.items.at(-1);
    expect((await as.admin("POST", "/api/v1/alerts/read", { upTo: oldest.id })).body.unread).toEqual({ count: 0, seenAt: newest.createdAt });

    // New work after the marker counts again; no body marks up to the newest.
    await insertAlert("failing");
    expect((await unread(as.admin)).count).toBe(1);
    expect((await as.admin("POST", "/api/v1/alerts/read")).body.unread.count).toBe(0);
    expect((await owner.api("POST", "/api/v1/alerts/read", {})).body.unread.count).toBe(0);
  });

  it("refuses bad input in the error shape: an unknown alert, a wrong type, an unknown field", async () => {
    const unknown = await as.member("POST", "/api/v1/alerts/read", { upTo: "no-such-alert" });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "not_found"]);
    const wrong = await as.member("POST", "/api/v1/alerts/read", { upTo: 42 });
    expect([wrong.status, wrong.body.error.code]).toEqual([400, "bad_request"]);
    const extra = await as.member("POST", "/api/v1/alerts/read", { upTo: "x", all: true });
    expect(extra.status).toBe(400);
    // The member's marker never moved.
    expect((await unread(as.member)).seenAt).toBeNull();
  });

  it("previews whom requiring SSO would lock out: members outside the provider's domain who never signed in with it", async () => {
    // Lin signed in through the IdP once (a partner account it vouches for): the IdP can sign Lin in again.
    await sb.db.run("INSERT INTO identity_token (id, user_id, issuer, id_token, via_sso, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)", "it-lin", "user-linked", "https://idp.example.com", "x".repeat(30), true, new Date(), new Date());
    const sso = await owner.api("GET", "/api/v1/workspace/sso");
    expect(sso.status, JSON.stringify(sso.body)).toBe(200);
    expect(sso.body.sso.provider).toMatchObject({ domain: "example.com", state: "active" });
    expect(sso.body.sso.lockOut).toEqual([{ userId: "user-outsider", name: "A outsider", email: "olga@elsewhere.org", role: "member" }]);
    // Admins read it (they see the members anyway); only the owner changes the rule.
    expect((await as.admin("GET", "/api/v1/workspace/sso")).body.sso.lockOut).toHaveLength(1);
    expect((await as.member("GET", "/api/v1/workspace/sso")).status).toBe(403);
  });
});
