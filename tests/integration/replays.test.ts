import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, sessionCookie, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { insertMember } from "../support/database";
import { startFixture, type RunningServer } from "../support/servers";
import { findAll, parseXml } from "../support/xml";

type Api = ReturnType<typeof apiClient>;

const SECRET = "tok-replay-9f3c1e77aa";

/** Polls a replay until it ends; answers it. */
async function finished(api: Api, id: string) {
  let replay: any;
  await waitFor(
    async () => {
      replay = (await api("GET", `/api/v1/replays/${id}`)).body.replay;
      return replay.status !== "running";
    },
    60_000,
    () => JSON.stringify(replay),
  );
  return replay;
}

const byName = (replay: any) => Object.fromEntries(replay.items.map((i: any) => [i.name, i]));

describe("replays: recorded calls sent again to a changed server, compared call by call", () => {
  let sb: ConsoleHandle;
  let v1: RunningServer;
  let v2: RunningServer;
  let owner: Api;
  let member: Api;
  let viewer: Api;
  let viewerToken = "";
  let elsewhere: Api;
  let v1Id = "";
  let v2Id = "";
  let otherServerId = "";
  let workspaceId = "";
  const recorded: string[] = [];

  beforeAll(async () => {
    [sb, v1, v2] = await Promise.all([startConsole(), startFixture("replay-server.ts", { env: { REPLAY_VERSION: "1" } }), startFixture("replay-server.ts", { env: { REPLAY_VERSION: "2" } })]);
    const o = await setupOwner(sb.url);
    workspaceId = o.workspace.id;
    owner = o.api;
    member = apiClient(sb.url, await insertMember(sb.db, { workspaceId: o.workspace.id, userId: "u-mia", name: "Mia Member", email: "mia@example.com", role: "member" }));
    viewerToken = await insertMember(sb.db, { workspaceId: o.workspace.id, userId: "u-vic", name: "Vic Viewer", email: "vic@example.com", role: "viewer" });
    viewer = apiClient(sb.url, viewerToken);
    v1Id = (await owner("POST", "/api/v1/servers", { name: "fixture-v1", url: v1.url })).body.server.id;
    v2Id = (await owner("POST", "/api/v1/servers", { name: "fixture-v2", url: v2.url })).body.server.id;
    const other = await owner("POST", "/api/v1/workspaces", { name: "Elsewhere" });
    const cookie = await sessionCookie(sb.url, o.email, o.password);
    const minted = await apiClient(sb.url)("POST", "/api/v1/tokens", { name: "elsewhere", scope: "full" }, { cookie, "x-workspace-id": other.body.workspace.id });
    elsewhere = apiClient(sb.url, minted.body.secret);
    otherServerId = (await elsewhere("POST", "/api/v1/servers", { name: "theirs", url: v2.url })).body.server.id;
    expect(otherServerId).toEqual(expect.any(String));
    // Recorded against v1, oldest first.
    for (const [name, args] of [
      ["add", { a: 2, b: 3 }],
      ["greet", { name: "Ada" }],
      ["version", {}],
      ["login", { user: "ada", token: SECRET }],
      ["lookup", { key: "k1" }],
    ] as const) {
      const res = await member("POST", `/api/v1/servers/${v1Id}/tools/call`, { name, arguments: args });
      expect(res.body.call?.status, JSON.stringify(res.body)).toBe("ok");
      recorded.push(res.body.call.id);
    }
  }, 120_000);
  afterAll(async () => {
    await Promise.all([sb?.stop(), v1?.stop(), v2?.stop()]);
  });

  it("reports exactly the changed calls as different, naming the paths; the secret goes as it was sent and is never shown", async () => {
    const started = await member("POST", "/api/v1/replays", { callIds: recorded, serverId: v2Id });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body.replay).toMatchObject({ status: "running", serverId: v2Id, serverName: "fixture-v2", total: 5, source: { callIds: recorded } });
    const replay = await finished(member, started.body.replay.id);
    expect(replay).toMatchObject({ status: "failed", total: 5, same: 2, different: 3, errors: 0 });
    const items = byName(replay);
    expect(items.add).toMatchObject({ status: "same", diff: null, callId: recorded[0] });
    expect(items.login).toMatchObject({ status: "same", diff: null });
    expect(items.greet.status).toBe("different");
    expect(items.greet.diff).toEqual([{ path: "/result/content/1", actual: { type: "text", text: "(greeted by v2)" }, change: "added" }]);
    expect(items.version.diff).toEqual([{ path: "/result/content/0/text", expected: "build 1", actual: "build 2", change: "changed" }]);
    // A result that became a JSON-RPC error: the result removed, the error added.
    expect(items.lookup.diff.map((d: any) => [d.path, d.change])).toEqual([
      ["/result", "removed"],
      ["/error", "added"],
    ]);
    expect(JSON.stringify(items.lookup.diff)).toContain("no key k1 in v2");

    // v2 received the token as it was typed; history and the replay show it masked or not at all.
    const received = (await (await fetch(`${v2.baseUrl}/_received`)).json()) as any[];
    expect(received.find((p) => p.name === "login")?.arguments).toEqual({ user: "ada", token: SECRET });
    expect(JSON.stringify(replay)).not.toContain(SECRET);
    const replayed = (await owner("GET", `/api/v1/calls/${items.login.replayCallId}`)).body.call;
    expect(replayed).toMatchObject({ origin: "replay", serverId: v2Id, name: "login" });
    expect(replayed.params.arguments.token).toBe("[redacted]");

    // Each replayed call is in history with origin "replay".
    const history = (await owner("GET", `/api/v1/calls?origin=replay&serverId=${v2Id}`)).body.items;
    expect(history.map((c: any) => c.id).sort()).toEqual(replay.items.map((i: any) => i.replayCallId).sort());

    // JUnit: a failure per different call, naming its paths.
    const junit = await fetch(`${sb.url}/api/v1/replays/${replay.id}?format=junit`, { headers: { authorization: `Bearer ${viewerToken}` } });
    expect(junit.headers.get("content-type")).toMatch(/application\/xml/);
    const xml = await junit.text();
    const suite = findAll(parseXml(xml), "testsuite")[0]!;
    expect(suite.attributes).toMatchObject({ tests: "5", failures: "3", errors: "0", skipped: "0" });
    const failures = findAll(suite, "failure");
    expect(failures).toHaveLength(3);
    expect(failures.map((f) => f.attributes.message).join(" ")).toContain("/result/content/0/text");
    expect(xml).not.toContain(SECRET);
  });

  it("replays what a history filter selects, oldest first; ignore pointers make differences disappear", async () => {
    const started = await member("POST", "/api/v1/replays", { filter: { serverId: v1Id }, serverId: v2Id, ignore: ["/result/content/0/text", "/result/content/*"] });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const replay = await finished(member, started.body.replay.id);
    expect(replay.items.map((i: any) => i.name)).toEqual(["add", "greet", "version", "login", "lookup"]);
    expect(replay.items.map((i: any) => i.status)).toEqual(["same", "same", "same", "same", "different"]);
    expect(replay).toMatchObject({ status: "failed", source: { filter: { serverId: v1Id } }, ignore: ["/result/content/0/text", "/result/content/*"] });

    // The same calls against the server they were recorded on: all the same.
    const again = await member("POST", "/api/v1/replays", { filter: { serverId: v1Id, name: "greet" }, serverId: v1Id });
    expect(await finished(member, again.body.replay.id)).toMatchObject({ status: "passed", total: 1, same: 1 });
    const list = (await viewer("GET", "/api/v1/replays")).body.items;
    expect(list.map((r: any) => r.id)).toEqual(expect.arrayContaining([replay.id, again.body.replay.id]));
    expect(list[0]).not.toHaveProperty("items");
  });

  it("replays a mock's recordings, as its file holds them", async () => {
    const now = new Date();
    const recordings = [
      { method: "tools/call", name: "greet", arguments: { name: "Bo" }, result: { content: [{ type: "text", text: "Hello, Bo" }, { type: "text", text: "(greeted by v2)" }] }, durationMs: 3 },
      { method: "tools/call", name: "version", arguments: {}, result: { content: [{ type: "text", text: "build 1" }] }, durationMs: null },
    ];
    await sb.db.run(
      'INSERT INTO "mock" (id, workspace_id, server_id, name, match, "ignore", latency, data, calls, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      "mock-1", workspaceId, v1Id, "recorded", "exact", "[]", false, JSON.stringify({ format: "switchboard-mock/1", recordings }), 2, now, now,
    );
    const started = await member("POST", "/api/v1/replays", { mockId: "mock-1", serverId: v2Id });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const replay = await finished(member, started.body.replay.id);
    expect(replay.items.map((i: any) => [i.callId, i.name, i.status])).toEqual([
      ["mock-1#0", "greet", "same"],
      ["mock-1#1", "version", "different"],
    ]);
    expect(replay.items[1].diff[0]).toMatchObject({ path: "/result/content/0/text", expected: "build 1", actual: "build 2" });
  });

  it("refuses hostile and empty selections with clear answers, never a 500", async () => {
    const post = (body: unknown) => member("POST", "/api/v1/replays", body);
    expect((await post({ callIds: recorded, serverId: otherServerId })).status).toBe(404);
    expect((await post({ callIds: ["no-such-call"], serverId: v2Id })).status).toBe(404);
    for (const pointer of ["result/content", "/a~2b", "", "/trailing~"]) {
      const res = await post({ callIds: recorded, serverId: v2Id, ignore: [pointer] });
      expect(res.status, pointer).toBe(422);
    }
    const empty = await post({ filter: { serverId: v1Id, name: "never-called" }, serverId: v2Id });
    expect(empty.status).toBe(422);
    expect(empty.body.error.message).toMatch(/selects no calls/);
    expect((await post({ callIds: [], serverId: v2Id })).status).toBe(422);
    expect((await post({ serverId: v2Id })).status).toBe(422);
    expect((await post({ callIds: recorded, filter: {}, serverId: v2Id })).status).toBe(422);
    expect((await post({ filter: { serverId: v1Id, bogus: 1 }, serverId: v2Id })).status).toBe(422);
    expect((await post({ mockId: "no-such-mock", serverId: v2Id })).status).toBe(404);
    const regexy = await post({ filter: { q: "((a+)+)+$[", name: ".*(" }, serverId: v2Id });
    expect(regexy.status).toBe(422);
    expect((await post({ callIds: Array.from({ length: 501 }, (_, i) => `c${i}`), serverId: v2Id })).status).toBe(422);
    const huge = await post({ callIds: ["x".repeat(2 * 1024 * 1024)], serverId: v2Id });
    expect([413, 422]).toContain(huge.status);
    expect((await member("GET", "/api/v1/replays/no-such-replay")).status).toBe(404);
    const ours = (await member("GET", "/api/v1/replays")).body.items[0].id;
    expect((await elsewhere("GET", `/api/v1/replays/${ours}`)).status).toBe(404);
    expect((await elsewhere("GET", "/api/v1/replays")).body.items).toEqual([]);
  });

  it("ends a replay whose instance stopped renewing its lease as interrupted; calls not reached stay pending", async () => {
    const past = new Date(Date.now() - 60_000);
    await sb.db.batch([
      [
        'INSERT INTO "replay" (id, workspace_id, server_id, server_name, source, "ignore", status, total, same, different, errors, instance_id, lease_until, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        "rp-orphan", workspaceId, v2Id, "fixture-v2", JSON.stringify({ callIds: [recorded[0]] }), "[]", "running", 1, 0, 0, 0, "gone-instance", past, past,
      ],
      ['INSERT INTO "replay_item" (replay_id, "index", call_id, method, name, status) VALUES (?, ?, ?, ?, ?, ?)', "rp-orphan", 0, recorded[0], "tools/call", "add", "pending"],
    ]);
    let replay: any;
    await waitFor(async () => (replay = (await viewer("GET", "/api/v1/replays/rp-orphan")).body.replay).status !== "running", 30_000, () => JSON.stringify(replay));
    expect(replay).toMatchObject({ status: "interrupted", items: [{ status: "pending", replayCallId: null }] });
    expect(replay.finishedAt).toEqual(expect.any(String));
  });

  it("lets viewers read replays but not start them", async () => {
    const refused = await viewer("POST", "/api/v1/replays", { callIds: recorded, serverId: v2Id });
    expect(refused.status).toBe(403);
    const ours = (await viewer("GET", "/api/v1/replays")).body.items[0].id;
    expect((await viewer("GET", `/api/v1/replays/${ours}`)).status).toBe(200);
    const audit = (await owner("GET", "/api/v1/audit?action=replay.started")).body.items;
    expect(audit.length).toBeGreaterThanOrEqual(3);
    expect(audit[0]).toMatchObject({ action: "replay.started", target: { type: "replay" }, actor: { name: "Mia Member" } });
  });
});
