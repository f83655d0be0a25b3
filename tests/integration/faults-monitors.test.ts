import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, onPostgres, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import type { TestDatabase } from "../support/database";
import { startPostgres, type PostgresServer } from "../support/postgres";
import { startEverything, type RunningServer } from "../support/servers";

type Api = ReturnType<typeof apiClient>;
type Run = { id: string; status: string; started_at: Date | string };

const env = { SWITCHBOARD_HEARTBEAT_MS: "1000", SWITCHBOARD_MONITOR_POLL_MS: "200" };
const at = (v: Date | string) => new Date(typeof v === "string" && !/[Z+]/.test(v) ? `${v}Z` : v).getTime();
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const monitorRuns = (db: TestDatabase, monitorId: string) => db.all<Run>("SELECT id, status, started_at FROM collection_run WHERE monitor_id = ? ORDER BY started_at", monitorId);
const count = async (db: TestDatabase, sql: string, ...params: unknown[]) => Number((await db.get<{ n: number | string }>(sql, ...params))!.n);

async function makeMonitor(api: Api, { name, steps, webhooks }: { name: string; steps: unknown[]; webhooks?: string[] }): Promise<string> {
  const collectionId = (await api("POST", "/api/v1/collections", { name, steps })).body.collection.id;
  const res = await api("POST", "/api/v1/monitors", { collectionId, schedule: { everySeconds: 5 }, ...(webhooks ? { alerts: { webhooks } } : {}) });
  expect(res.status).toBe(201);
  return res.body.monitor.id;
}

/**
 * Issue 38, "database outages": a monitor's run, tick and alert each survive the console's own
 * database going away. A run whose writes could not land is reaped by its lease and ends
 * `interrupted` (never left `running`, never `error`: no incident, no alert); a tick and its run
 * are written together; a delivery's outcome is recorded once the database is back, and sent once.
 */
describe("monitors through database faults", () => {
  // The private PostgreSQL server (migrated: the slow part) is made while the first case runs.
  let privatePostgres: Promise<{ pg: PostgresServer; databaseUrl: string }> | null = null;
  beforeAll(() => {
    if (!onPostgres) return;
    privatePostgres = startPostgres().then(async (pg) => ({ pg, databaseUrl: await pg.createMigratedDatabase("sb_faults_monitors") }));
    privatePostgres.catch(() => undefined);
  });
  afterAll(async () => {
    await (await privatePostgres?.catch(() => null))?.pg.stop();
  });

  describe("a run whose instance stopped renewing its lease", () => {
    let sb: ConsoleHandle;
    let everything: RunningServer;
    let api: Api;
    let serverId = "";

    beforeAll(async () => {
      everything = await startEverything("streamableHttp");
      sb = await startConsole({ env });
      api = (await setupOwner(sb.url)).api;
      serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    }, 120_000);
    afterAll(async () => {
      await Promise.all([sb?.stop(), everything?.stop()]);
    });

    it("is reaped as interrupted, and the next tick runs (it is not skipped behind it for good)", async () => {
      const monitorId = await makeMonitor(api, { name: "lease", steps: [{ serverId, method: "tools/call", name: "echo", arguments: { message: "tick" } }] });
      await waitFor(async () => (await monitorRuns(sb.db, monitorId)).some((r) => r.status === "passed"), 20_000);
      // A run left `running` by this live instance, whose lease ran out (its writes failed through an outage).
      const monitor = (await sb.db.get<{ workspace_id: string; collection_id: string }>("SELECT workspace_id, collection_id FROM monitor WHERE id = ?", monitorId))!;
      const instance = (await sb.db.get<{ id: string }>('SELECT id FROM "instance"'))!.id;
      const stale = "stale-run";
      const startedAt = new Date(Date.now() - 60_000);
      await sb.db.batch([
        [
          "INSERT INTO collection_run (id, workspace_id, collection_id, collection_name, status, origin, stop_on_failure, instance_id, variables, passed, failed, total, started_at, monitor_id, lease_until) VALUES (?, ?, ?, 'lease', 'running', 'monitor', ?, ?, '{}', 0, 0, 1, ?, ?, ?)",
          stale, monitor.workspace_id, monitor.collection_id, true, instance, startedAt, monitorId, new Date(Date.now() - 10_000),
        ],
        ["INSERT INTO collection_run_step (run_id, \"index\", step_id, label, status, assertions) VALUES (?, 0, 's1', 'tools/call echo', 'running', '[]')", stale],
      ]);
      const inserted = Date.now();
      await waitFor(async () => (await monitorRuns(sb.db, monitorId)).some((r) => r.id !== stale && at(r.started_at) > inserted && r.status === "passed"), 20_000, () => "no run passed after the stale one");
      expect((await sb.db.get<{ status: string }>("SELECT status FROM collection_run WHERE id = ?", stale))!.status).toBe("interrupted");
      expect(await sb.db.get<{ status: string; error: string }>("SELECT status, error FROM collection_run_step WHERE run_id = ?", stale)).toMatchObject({ status: "interrupted", error: expect.stringMatching(/stopped renewing its lease/) });
      expect(await count(sb.db, "SELECT count(*) AS n FROM incident WHERE monitor_id = ?", monitorId)).toBe(0);
      expect(await count(sb.db, "SELECT count(*) AS n FROM alert WHERE monitor_id = ?", monitorId)).toBe(0);
      await api("PATCH", `/api/v1/monitors/${monitorId}`, { enabled: false });
    }, 60_000);
  });

  describe.skipIf(!onPostgres)("two instances on a PostgreSQL server that stops, is cut off and restarts", () => {
    let pg: PostgresServer;
    let consoles: ConsoleHandle[] = [];
    let everything: RunningServer;
    let api: Api;
    let db: TestDatabase;
    let serverId = "";
    let database = "";

    beforeAll(async () => {
      let databaseUrl: string;
      [{ pg, databaseUrl }, everything] = await Promise.all([privatePostgres!, startEverything("streamableHttp")]);
      database = new URL(databaseUrl).pathname.slice(1);
      consoles = await Promise.all([startConsole({ databaseUrl, join: true, env }), startConsole({ databaseUrl, join: true, env })]);
      const a = consoles[0]!;
      db = a.db;
      api = (await setupOwner(a.url)).api;
      serverId = (await api("POST", "/api/v1/servers", { name: "everything", url: everything.url })).body.server.id;
    }, 120_000);
    afterAll(async () => {
      await Promise.all([...consoles.map((c) => c.stop().catch(() => undefined)), everything?.stop()]);
    });

    it("leaves no run running, ticks each due time at most once, raises no alert, and ticks again after recovery", async () => {
      const steps = [
        { serverId, method: "tools/call", name: "trigger-long-running-operation", arguments: { duration: 2, steps: 2 } },
        { serverId, method: "tools/call", name: "echo", arguments: { message: "tick" } },
      ];
      const monitorId = await makeMonitor(api, { name: "through faults", steps });
      await waitFor(async () => (await monitorRuns(db, monitorId)).some((r) => r.status === "passed"), 30_000);

      // 1. The database stops while a run's step is waiting for the server, for longer than a lease.
      let caught = "";
      await waitFor(async () => {
        const row = await db.get<{ id: string }>("SELECT r.id FROM collection_run r JOIN collection_run_step s ON s.run_id = r.id WHERE r.monitor_id = ? AND r.status = 'running' AND s.status = 'running' AND s.\"index\" = 0", monitorId);
        caught = row?.id ?? "";
        return caught !== "";
      }, 20_000);
      await pg.stop({ keep: true });
      await pause(8000);
      await pg.start();

      // 2. Connections cut around three due times (a tick claimed, its run inserted, steps written).
      for (let i = 0; i < 3; i++) {
        await pause(5000 - (Date.now() % 5000) - 100);
        for (let j = 0; j < 6; j++) {
          await pg.terminateConnections(database);
          await pause(60);
        }
      }

      // 3. A crash of the database server and its recovery.
      await pg.kill();
      await pg.start();
      const recovered = Date.now();

      // After recovery: nothing from before is left running, and a new run passes.
      await waitFor(
        async () => {
          const runs = await monitorRuns(db, monitorId);
          return runs.every((r) => r.status !== "running" || at(r.started_at) > recovered) && runs.some((r) => at(r.started_at) > recovered && r.status === "passed");
        },
        45_000,
        () => consoles.map((c) => c.logs().slice(-3000)).join("\n----\n"),
      );
      const runs = await monitorRuns(db, monitorId);
      expect(runs.find((r) => r.id === caught)?.status).toBe("interrupted");
      expect(runs.filter((r) => r.status === "error" || r.status === "failed")).toEqual([]);
      // Each due time at most once, each tick that ran stands with its run, each run with its tick.
      expect(await count(db, "SELECT count(*) - count(DISTINCT due_at) AS n FROM monitor_tick WHERE monitor_id = ?", monitorId)).toBe(0);
      expect(await db.all("SELECT t.due_at FROM monitor_tick t LEFT JOIN collection_run r ON r.id = t.run_id WHERE t.monitor_id = ? AND t.outcome = 'ran' AND r.id IS NULL", monitorId)).toEqual([]);
      expect(await db.all("SELECT r.id FROM collection_run r LEFT JOIN monitor_tick t ON t.run_id = r.id WHERE r.monitor_id = ? AND t.id IS NULL", monitorId)).toEqual([]);
      // The outage was the console's, not the server's: no incident, no alert.
      expect(await count(db, "SELECT count(*) AS n FROM incident WHERE monitor_id = ?", monitorId)).toBe(0);
      expect(await count(db, "SELECT count(*) AS n FROM alert WHERE monitor_id = ?", monitorId)).toBe(0);
      // It keeps ticking: the next due time runs too.
      const last = Date.now();
      await waitFor(async () => (await monitorRuns(db, monitorId)).some((r) => at(r.started_at) > last && r.status === "passed"), 20_000);
      await api("PATCH", `/api/v1/monitors/${monitorId}`, { enabled: false });
    }, 150_000);

    it("records an alert's delivery once the database is back, and sends it once", async () => {
      const bodies: { event: string; monitor: { id: string } }[] = [];
      let release = () => undefined as void;
      const answered = new Promise<void>((resolve) => (release = resolve));
      const receiver = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          bodies.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
          void answered.then(() => res.writeHead(200).end("ok"));
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
      const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      try {
        const steps = [{ serverId, method: "tools/call", name: "echo", arguments: { message: "a" }, assert: [{ kind: "json", path: "/content/0/text", equals: "Echo: b" }] }];
        const monitorId = await makeMonitor(api, { name: "failing", steps, webhooks: [hook] });
        // The alert is recorded (with its incident) before it is sent: the database stops while the webhook answers.
        await waitFor(() => bodies.length > 0, 30_000);
        await pg.stop({ keep: true });
        release();
        await pause(3000);
        await pg.start();
        type Delivery = { channel: string; ok: boolean; detail: string };
        await waitFor(
          async () => {
            const rows = await db.all<{ deliveries: string }>("SELECT deliveries FROM alert WHERE monitor_id = ?", monitorId);
            return rows.length === 1 && (JSON.parse(rows[0]!.deliveries) as Delivery[]).some((d) => d.channel === "webhook" && d.ok);
          },
          30_000,
          () => consoles.map((c) => c.logs().slice(-2000)).join("\n----\n"),
        );
        await api("PATCH", `/api/v1/monitors/${monitorId}`, { enabled: false });
        expect(bodies.filter((b) => b.monitor.id === monitorId).map((b) => b.event)).toEqual(["failing"]);
        expect(await count(db, "SELECT count(*) AS n FROM incident WHERE monitor_id = ?", monitorId)).toBe(1);
      } finally {
        release();
        await new Promise<void>((resolve) => receiver.close(() => resolve()));
      }
    }, 90_000);
  });
});
