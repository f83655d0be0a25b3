import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayHost } from "../support/gateway-hosts";
import { apiClient, onPostgres, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { startFixture, type RunningServer } from "../support/servers";

type Api = ReturnType<typeof apiClient>;
type Claim = { job: string; key: string; due_at: Date | string; instance_id: string; finished_at: Date | string | null; outcome: string | null };

const V1 = { tools: [{ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }, { name: "add", inputSchema: { type: "object" } }] };
// `add` removed: a breaking change.
const V2 = { tools: [{ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }] };

/**
 * Issue 39, "done when": on two instances sharing PostgreSQL each claimed job runs once per due
 * time (the daily drift check, retention, an alert's delivery), one instance's death hands its jobs
 * over, a server used only through the gateway gets drift snapshots, and two instances connecting
 * one watched server alert once.
 */
describe.skipIf(!onPostgres)("background jobs on two console instances sharing PostgreSQL", () => {
  const env = {
    SWITCHBOARD_HEARTBEAT_MS: "500",
    SWITCHBOARD_MONITORS: "off",
    SWITCHBOARD_JOB_POLL_MS: "100",
    SWITCHBOARD_RETENTION_INTERVAL_MS: "1000",
    SWITCHBOARD_DRIFT_CHECK_MS: "1000",
    SWITCHBOARD_ALERT_DELIVERY_MS: "300",
  };
  let a: ConsoleHandle;
  let b: ConsoleHandle;
  let apiA: Api;
  let apiB: Api;
  let fixture: RunningServer;
  let receiver: http.Server;
  let watchedId = "";
  let reconnectedAt = 0;
  const hooks: Record<string, unknown>[] = [];
  const capsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-jobs-")), "caps.json");
  // Through b: a is killed in the last test.
  const claims = (job: string, key = "") => b.db.all<Claim>('SELECT * FROM "job_claim" WHERE "job" = ? AND "key" = ? ORDER BY "due_at"', job, key);
  const history = async (id: string) => (await apiA("GET", `/api/v1/servers/${id}/capabilities/history`)).body.items as { source: string; breaking: number }[];
  const ms = (d: Date | string) => new Date(d).getTime();

  beforeAll(async () => {
    fs.writeFileSync(capsFile, JSON.stringify(V1));
    receiver = http.createServer((req, res) => {
      let text = "";
      req.on("data", (d) => (text += d));
      req.on("end", () => {
        hooks.push(JSON.parse(text) as Record<string, unknown>);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    fixture = await startFixture("drift-server.ts", { env: { DRIFT_CAPABILITIES: capsFile } });
    a = await startConsole({ env });
    b = await startConsole({ databaseUrl: a.databaseUrl, env, join: true });
    const owner = await setupOwner(a.url);
    apiA = owner.api;
    apiB = apiClient(b.url, owner.token);
    watchedId = (await apiA("POST", "/api/v1/servers", { name: "watched", url: fixture.url })).body.server.id;
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    expect((await apiA("PUT", `/api/v1/servers/${watchedId}/capabilities/watch`, { webhooks: [hook] })).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    receiver?.close();
    await Promise.all([a?.stop().catch(() => undefined), b?.stop().catch(() => undefined), fixture?.stop()]);
  });

  it("two instances connecting one watched server at once store one snapshot, and one breaking change alerts once", async () => {
    const connectBoth = () => Promise.all([apiA, apiB].map((api) => api("POST", `/api/v1/servers/${watchedId}/connect`)));
    expect((await connectBoth()).map((r) => r.status)).toEqual([200, 200]);
    await waitFor(async () => (await history(watchedId)).length === 1);
    await Promise.all([apiA, apiB].map((api) => api("POST", `/api/v1/servers/${watchedId}/disconnect`)));
    fs.writeFileSync(capsFile, JSON.stringify(V2));
    reconnectedAt = Date.now();
    expect((await connectBoth()).map((r) => r.status)).toEqual([200, 200]);
    await waitFor(async () => (await history(watchedId)).length === 2);
    // A daily check due after both connects has run: both connects' snapshots are over.
    await waitFor(async () => (await claims("drift.check", watchedId)).some((c) => ms(c.due_at) > reconnectedAt + 1000 && c.finished_at));
    expect((await history(watchedId)).map((s) => s.breaking)).toEqual([1, 0]);
    const alerts = ((await apiA("GET", "/api/v1/alerts")).body.items as { event: string; deliveries: { channel: string; ok: boolean }[] }[]).filter((x) => x.event === "breaking-change");
    expect(alerts).toHaveLength(1);
    await waitFor(() => hooks.length >= 1);
    expect(hooks.filter((h) => h.event === "breaking-change")).toHaveLength(1);
  }, 60_000);

  it("the daily check of a server live on both instances runs once per due time, each due time finished", async () => {
    // Since the reconnect (while both were disconnected no due time had anything to check).
    const since = async () => (await claims("drift.check", watchedId)).filter((r) => ms(r.due_at) > reconnectedAt);
    await waitFor(async () => (await since()).length >= 4, 20_000);
    const rows = await since();
    const dues = rows.map((r) => ms(r.due_at));
    // One row per due time (the primary key), none skipped from the first to the last.
    expect(dues.slice(1).map((d, i) => d - dues[i]!)).toEqual(dues.slice(1).map(() => 1000));
    expect(rows.slice(0, -1).every((r) => r.finished_at && r.outcome === "ok")).toBe(true);
  }, 30_000);

  it("a server used only through the gateway gets drift snapshots", async () => {
    const id = (await apiA("POST", "/api/v1/servers", { name: "gateway-only", url: fixture.url })).body.server.id as string;
    const exposure = await apiA("PUT", `/api/v1/servers/${id}/exposure`, { enabled: true });
    expect(exposure.status).toBe(200);
    const token = (await apiA("POST", "/api/v1/tokens", { name: "host", scopes: ["gateway"] })).body.secret as string;
    expect(await history(id)).toEqual([]);
    const host = await gatewayHost(`${b.url}${exposure.body.exposure.path}`, token);
    try {
      const listed = await host.listTools();
      expect(listed.tools.map((t) => t.name)).toEqual(["echo"]);
      await waitFor(async () => (await history(id)).length === 1);
      expect((await history(id))[0]).toMatchObject({ source: "connect" });
      // No console session was ever opened to it: the snapshot came from the gateway's own connection.
      expect(await a.db.get<{ n: number }>('SELECT COUNT(*)::int AS n FROM "mcp_session" WHERE "server_id" = ?', id)).toEqual({ n: 0 });
      // And the daily check reaches it through that connection too.
      await waitFor(async () => (await claims("drift.check", id)).some((c) => c.finished_at));
    } finally {
      await host.close();
    }
  }, 60_000);

  it("an alert its instance never delivered is delivered once, by another instance", async () => {
    const delivered = hooks.length;
    // A copy of the delivered alert as an instance that died after recording it leaves it: pending.
    const original = (await a.db.get<{ id: string; workspace_id: string; targets: string }>('SELECT "id", "workspace_id", "targets" FROM "alert" WHERE "event" = ?', "breaking-change"))!;
    expect(original.targets).not.toContain("127.0.0.1");
    await a.db.run(
      `INSERT INTO "alert" ("id", "workspace_id", "event", "text", "path", "server_id", "server_name", "deliveries", "targets", "created_at")
       VALUES ('orphan-alert', ?, 'breaking-change', 'orphaned', '/servers', ?, 'watched', ?, ?, now() AT TIME ZONE 'UTC')`,
      original.workspace_id,
      watchedId,
      JSON.stringify([{ channel: "console", target: "console", ok: true, detail: "listed" }, { channel: "webhook", target: "http://127.0.0.1/…", ok: false, detail: "pending" }]),
      original.targets,
    );
    await waitFor(() => hooks.length > delivered, 20_000);
    await waitFor(async () => !(await a.db.get<{ deliveries: string }>('SELECT "deliveries" FROM "alert" WHERE "id" = ?', "orphan-alert"))!.deliveries.includes("pending"));
    expect(hooks.slice(delivered).map((h) => h.text)).toEqual(["orphaned"]);
    const rows = await claims("alerts.deliver", "orphan-alert");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.finished_at).not.toBeNull();
    // The first alert was claimed by the instance that raised it, and delivered by it alone.
    expect(await claims("alerts.deliver", original.id)).toHaveLength(1);
  }, 40_000);

  it("retention runs once per due time; an instance's death hands its claims over, an unfinished one included", async () => {
    await waitFor(async () => (await claims("retention")).length >= 3, 20_000);
    const before = await claims("retention");
    const dues = before.map((r) => ms(r.due_at));
    expect(dues.slice(1).map((d, i) => d - dues[i]!)).toEqual(dues.slice(1).map(() => 1000));
    // A due time claimed by an instance that then died mid-run: unfinished, its lease run out.
    const orphanDue = new Date((Math.floor(Date.now() / 1000) + 3) * 1000);
    const utc = (d: Date) => d.toISOString().replace("Z", "");
    await b.db.run(
      `INSERT INTO "job_claim" ("job", "key", "due_at", "instance_id", "claimed_at", "lease_until") VALUES ('retention', '', ?, 'dead-instance', ?, ?)`,
      utc(orphanDue),
      utc(orphanDue),
      utc(new Date(0)),
    );
    const bId = (await b.db.get<{ id: string }>('SELECT "id" FROM "instance" ORDER BY "started_at" DESC LIMIT 1'))!.id;
    await a.stop({ crash: true });
    const killedAt = Date.now();
    // The orphaned due time is among them once it is due.
    await waitFor(async () => (await claims("retention")).filter((r) => ms(r.due_at) > Math.max(killedAt, orphanDue.getTime()) && r.finished_at).length >= 2, 20_000);
    const after = (await claims("retention")).filter((r) => ms(r.due_at) > killedAt);
    expect(new Set(after.map((r) => r.instance_id)).size).toBe(1);
    expect(after[0]!.instance_id).toBe(bId);
    const takenOver = (await claims("retention")).find((r) => ms(r.due_at) === orphanDue.getTime())!;
    expect(takenOver.instance_id).not.toBe("dead-instance");
    await waitFor(async () => Boolean((await claims("retention")).find((r) => ms(r.due_at) === orphanDue.getTime())!.finished_at));
    const all = (await claims("retention")).map((r) => ms(r.due_at));
    expect(all.slice(1).map((d, i) => d - all[i]!)).toEqual(all.slice(1).map(() => 1000));
  }, 60_000);
});
