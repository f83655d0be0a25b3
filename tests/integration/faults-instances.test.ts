import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgres, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startPostgres, type PostgresServer } from "../support/postgres";
import { startEverything, type RunningServer } from "../support/servers";
import { testDatabase, type TestDatabase } from "../support/database";

/** One echo call sent through the API under load, and what the API answered. */
interface Sent {
  requestId: string;
  via: ConsoleHandle;
  status: number;
  retryAfter: string | null;
  callStatus?: string;
  callId?: string;
  /** The API's error, for the failure message. */
  error?: string;
}

// Bounds of one phase's load: calls in flight per instance, and calls in all.
const WORKERS = 3;
const MAX_CALLS = 1500;

/**
 * Issue 38: database outages with two instances under a steady load of calls. Whatever the
 * database does (a restart, a stop longer than three heartbeats, every connection cut) no call
 * is lost, none stays pending, a live instance's calls are never marked interrupted, no row says
 * `error` for a server that answered, and the API answers 200 or 503 (never 500). A killed
 * instance's calls end interrupted, by the survivor. Its own PostgreSQL server: the PostgreSQL
 * pass's shared one must never go down.
 */
describe.skipIf(!onPostgres)("database outages under load with two instances", () => {
  const env = { SWITCHBOARD_HEARTBEAT_MS: "500", SWITCHBOARD_MONITORS: "off" };
  let pgServer: PostgresServer;
  let databaseName: string;
  let db: TestDatabase;
  let a: ConsoleHandle;
  let b: ConsoleHandle;
  let everything: RunningServer;
  let token: string;
  let serverId: string;
  /** Where each console's log stood when the phase began. */
  let logsFrom = new Map<ConsoleHandle, number>();

  beforeAll(async () => {
    [pgServer, everything] = await Promise.all([startPostgres(), startEverything("streamableHttp")]);
    databaseName = `sb_faults_instances_${process.pid}`;
    const databaseUrl = await pgServer.createMigratedDatabase(databaseName);
    db = testDatabase(databaseUrl);
    a = await startConsole({ databaseUrl, join: true, env });
    b = await startConsole({ databaseUrl, join: true, env });
    const owner = await setupOwner(a.url);
    token = owner.token;
    serverId = (await owner.api("POST", "/api/v1/servers", { name: "everything", url: everything.url, transport: "streamable-http" })).body.server.id;
    // Warm-up: an instance's first calls load the call path's modules, a pause of seconds on a
    // busy machine that the 1.5 s lease would rightly take for a death.
    for (const via of [a, b]) for (let i = 0; i < 5; i++) expect((await echo(via, `warm-up-${via.pid()}-${i}`)).callStatus).toBe("ok");
  });
  afterAll(async () => {
    await Promise.all([a?.stop({ crash: true }).catch(() => undefined), b?.stop({ crash: true }).catch(() => undefined)]);
    await everything?.stop();
    await pgServer?.stop();
  });

  async function echo(via: ConsoleHandle, requestId: string): Promise<Sent> {
    const res = await fetch(`${via.url}/api/v1/servers/${serverId}/tools/call`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", origin: via.url },
      body: JSON.stringify({ name: "echo", arguments: { message: requestId }, requestId }),
    }).catch(() => null);
    if (!res) return { requestId, via, status: 0, retryAfter: null };
    const body = (await res.json().catch(() => null)) as { call?: { id: string; status: string; error?: unknown }; error?: { code: string; message: string; details?: { callId?: string } } } | null;
    return {
      requestId,
      via,
      status: res.status,
      retryAfter: res.headers.get("retry-after"),
      callStatus: body?.call?.status,
      callId: body?.call?.id ?? body?.error?.details?.callId,
      error: body?.error ? `${body.error.code}: ${body.error.message}` : body?.call?.error ? JSON.stringify(body.call.error) : undefined,
    };
  }

  /** Echo calls through both instances while `fault` runs, and until `after` more answered 200 once it is over. */
  async function underLoad(phase: string, fault: () => Promise<void>, { after = 40, through = () => [a, b] } = {}): Promise<Sent[]> {
    logsFrom = new Map([a, b].map((c) => [c, c.logs().length]));
    const sent: Sent[] = [];
    let n = 0;
    let stop = false;
    const worker = async (via: ConsoleHandle) => {
      while (!stop && n < MAX_CALLS) {
        const s = await echo(via, `${phase}-${String(n++).padStart(5, "0")}`);
        sent.push(s);
        // A dead instance refuses at once: no busy loop against it.
        if (s.status !== 200) await new Promise((r) => setTimeout(r, 50));
      }
    };
    const workers = [a, b].flatMap((via) => Array.from({ length: WORKERS }, () => worker(via)));
    await waitFor(() => sent.filter((s) => s.status === 200).length >= 20, 30_000);
    await fault();
    const from = sent.length;
    await waitFor(() => sent.slice(from).filter((s) => s.status === 200 && through().includes(s.via)).length >= after || n >= MAX_CALLS, 60_000);
    stop = true;
    await Promise.all(workers);
    return sent;
  }

  /** The instance rows: every live console's, with its real host and pid (a killed one's reaped). */
  async function expectInstanceRows(live: ConsoleHandle[]) {
    const rows = () => db.all<{ host: string; pid: number }>("SELECT host, pid FROM instance");
    const pids = live.map((c) => c.pid()).sort();
    await waitFor(async () => JSON.stringify((await rows()).map((r) => r.pid).sort()) === JSON.stringify(pids), 10_000).catch(() => undefined);
    const found = await rows();
    expect(found.map((r) => r.pid).sort()).toEqual(pids);
    expect(found.filter((r) => r.host === "")).toEqual([]);
  }

  /** What every phase must leave: nothing lost, nothing stuck, no outcome the server never produced. */
  async function expectSettled(phase: string, sent: Sent[], { live = [a, b], killed }: { live?: ConsoleHandle[]; killed?: string } = {}) {
    const fromLive = sent.filter((s) => live.includes(s.via));
    // The API: 200, or 503 with Retry-After while the database is away; never a 500.
    expect(fromLive.filter((s) => s.status !== 200 && s.status !== 503).map((s) => `${s.requestId}: ${s.status} ${s.error}`)).toEqual([]);
    expect(fromLive.filter((s) => s.status === 503 && !s.retryAfter).map((s) => s.requestId)).toEqual([]);
    // Echo always answers: a 200 is always an ok call.
    expect(fromLive.filter((s) => s.status === 200 && s.callStatus !== "ok").map((s) => `${s.requestId}: ${s.callStatus} ${s.error}`)).toEqual([]);
    // Nothing stuck: once things settle no call is pending (a 503 after the answer is completed in the background).
    const pending = () => db.all<{ request_id: string }>(`SELECT request_id FROM "call" WHERE status = 'pending' AND request_id LIKE ?`, `${phase}-%`);
    await waitFor(async () => (await pending()).length === 0, 30_000, () => "calls still pending after 30 s");
    const rows = await db.all<{ request_id: string; status: string; instance_id: string }>(`SELECT request_id, status, instance_id FROM "call" WHERE request_id LIKE ?`, `${phase}-%`);
    const byRequest = new Map(rows.map((r) => [r.request_id, r]));
    // Nothing lost: every call the API answered for has its row, with the status the API said.
    expect(sent.filter((s) => (s.status === 200 || s.callId) && !byRequest.has(s.requestId)).map((s) => `${s.requestId}: ${s.status}`)).toEqual([]);
    expect(sent.filter((s) => s.status === 200 && byRequest.get(s.requestId)?.status !== s.callStatus).map((s) => s.requestId)).toEqual([]);
    // No outcome the server never produced, and no live instance's call interrupted, but for one
    // its own database failed in the middle of, which the API said (a 503 naming it).
    expect(rows.filter((r) => r.status === "error").map((r) => r.request_id)).toEqual([]);
    const told = new Set(sent.filter((s) => s.status === 503 && s.callId).map((s) => s.requestId));
    expect(rows.filter((r) => r.status === "interrupted" && r.instance_id !== killed && !told.has(r.request_id)).map((r) => r.request_id)).toEqual([]);
    if (!killed) for (const c of live) expect(c.logs().slice(logsFrom.get(c))).not.toMatch(/left pending by a stopped console instance marked interrupted|of a stopped console instance marked error/);
    await expectInstanceRows(live);
  }

  it("a database restart", async () => {
    const sent = await underLoad("restart", async () => {
      await pgServer.stop({ keep: true });
      await pgServer.start();
    });
    await expectSettled("restart", sent);
  });

  it("the database away for longer than three heartbeats", async () => {
    const sent = await underLoad("away", async () => {
      await pgServer.stop({ keep: true });
      await new Promise((r) => setTimeout(r, 3000)); // the outage itself, six heartbeats long
      await pgServer.start();
    });
    await expectSettled("away", sent);
  });

  it("every connection cut at once", async () => {
    const sent = await underLoad("cut", async () => {
      for (let i = 0; i < 12; i++) {
        await pgServer.terminateConnections(databaseName);
        await new Promise((r) => setTimeout(r, 150)); // cuts spread over two seconds of load
      }
    });
    await expectSettled("cut", sent);
  });

  it("an instance killed mid-load: its calls end interrupted by the survivor, the survivor's never", async () => {
    const { instance_id: killed } = (await db.get<{ instance_id: string }>(`SELECT instance_id FROM "call" WHERE request_id = ?`, `warm-up-${b.pid()}-0`))!;
    const sent = await underLoad("killed", () => b.stop({ crash: true }), { through: () => [a] });
    await expectSettled("killed", sent, { live: [a], killed });
    expect(sent.some((s) => s.via === b && s.status === 0)).toBe(true);
  });
});
