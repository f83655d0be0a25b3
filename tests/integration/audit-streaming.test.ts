import { createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { insertMember } from "../support/database";
import { startSinkReceiver, type SinkReceiver } from "../support/sink-receiver";

type Api = ReturnType<typeof apiClient>;
interface Line {
  id: string;
  workspaceId: string;
  seq: number;
  at: string;
  type: string;
  action?: string;
  auditSeq?: number;
  name?: string;
}

const DAY_MS = 86_400_000;
const env = {
  SWITCHBOARD_AUDIT_SINK_MS: "200",
  SWITCHBOARD_AUDIT_SINK_BACKOFF_MS: "200",
  SWITCHBOARD_JOB_POLL_MS: "200",
  SWITCHBOARD_HEARTBEAT_MS: "300",
  SWITCHBOARD_RETENTION_INTERVAL_MS: "500",
  SWITCHBOARD_MONITORS: "off",
  // The network's policy with one loopback address let through: the receivers' (127.0.0.1); any
  // other address is refused, and the refusal is shown on 127.0.0.2 (traffic stays on loopback).
  SWITCHBOARD_NETWORK_POLICY: "public",
  SWITCHBOARD_ALLOWED_NETWORKS: "127.0.0.1/32",
};
const linesOf = (bodies: { body: string }[]) => bodies.flatMap((r) => r.body.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Line));

/** Streaming, verify and retention on one console; the last case adds a second instance and kills the one delivering. */
describe("audit streaming and integrity", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-audit-stream-"));
  let a: ConsoleHandle;
  let b: ConsoleHandle | undefined;
  let api: Api;
  let member: Api;
  let workspaceId: string;
  let ownerToken: string;
  let receiver: SinkReceiver;
  let n = 0;
  const touch = async () => expect((await api("PATCH", "/api/v1/workspace", { name: `Streamed ${++n}` })).status).toBe(200);
  const sink = async (id: string) => (await api("GET", `/api/v1/audit/sinks/${id}`)).body.sink;

  beforeAll(async () => {
    receiver = await startSinkReceiver();
    a = await startConsole({ dataDir, env });
    const setup = await setupOwner(a.url);
    api = setup.api;
    ownerToken = setup.token;
    workspaceId = setup.workspace.id as string;
    expect((await api("PATCH", "/api/v1/workspace", { allowedNetworks: ["127.0.0.1/32"] })).status).toBe(200);
    member = apiClient(a.url, await insertMember(a.db, { workspaceId, userId: "u-mem", name: "Mem", email: "mem@example.com", role: "member" }));
  });
  afterAll(async () => {
    receiver?.dropHeld();
    await b?.stop().catch(() => undefined);
    await a?.stop().catch(() => undefined);
    await receiver?.close();
  });

  it("a webhook down for a while receives every event exactly once, in order, signed; call summaries carry no arguments", async () => {
    receiver.set("down");
    const created = await api("POST", "/api/v1/audit/sinks", { kind: "webhook", url: `${receiver.url}/hook`, secret: "hook-secret", include: ["audit", "calls"] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.sink.id as string;
    expect(created.body.sink).toMatchObject({ kind: "webhook", hasSecret: true, include: ["audit", "calls"], enabled: true });
    expect(JSON.stringify(created.body)).not.toContain("hook-secret");
    for (let i = 0; i < 5; i++) await touch();
    const demo = (await api("POST", "/api/v1/servers/demo")).body.server.id as string;
    const call = await api("POST", `/api/v1/servers/${demo}/tools/call`, { name: "hello", arguments: { name: "sekret-argument-4711" } });
    expect(call.status).toBe(200);
    await waitFor(async () => (await sink(id)).failed >= 2, 20_000);
    const down = await sink(id);
    expect(down.lastError).toBe("HTTP 503");
    expect(down.lagSeconds).toBeGreaterThanOrEqual(0);
    expect(receiver.received).toHaveLength(0);

    receiver.set("up");
    const head = async () => (await a.db.get<{ m: number }>("SELECT MAX(seq) AS m FROM audit_event WHERE workspace_id = ?", workspaceId))!.m;
    const lastAudit = await head();
    await waitFor(() => linesOf(receiver.received).some((l) => l.type === "audit" && l.auditSeq === lastAudit) && linesOf(receiver.received).some((l) => l.type === "call"), 20_000);
    for (const r of receiver.received) {
      expect(r.headers["content-type"]).toBe("application/x-ndjson");
      expect(r.headers["x-switchboard-signature"]).toBe(`sha256=${createHmac("sha256", "hook-secret").update(r.body).digest("hex")}`);
    }
    const lines = linesOf(receiver.received);
    expect(new Set(lines.map((l) => l.id)).size).toBe(lines.length);
    // One outbox sequence: consecutive, in order, each with a stable id.
    lines.forEach((l, i) => {
      expect(l.seq).toBe(lines[0]!.seq + i);
      expect(l.id).toBe(`${workspaceId}:${l.seq}`);
      expect(l.workspaceId).toBe(workspaceId);
    });
    const audits = lines.filter((l) => l.type === "audit");
    expect(audits[0]!.action).toBe("audit_sink.created");
    const rows = await a.db.all<{ seq: number }>("SELECT seq FROM audit_event WHERE workspace_id = ? AND seq >= ? ORDER BY seq", workspaceId, audits[0]!.auditSeq);
    expect(audits.map((l) => l.auditSeq)).toEqual(rows.map((r) => r.seq));
    const calls = lines.filter((l) => l.type === "call");
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ name: "hello", method: "tools/call", status: "ok" });
    expect(receiver.received.map((r) => r.body).join("")).not.toContain("sekret-argument-4711");
    await waitFor(async () => (await sink(id)).lagSeconds === 0 && (await sink(id)).lastError === null, 10_000);
    expect((await sink(id)).delivered).toBe(lines.length);
    expect((await api("DELETE", `/api/v1/audit/sinks/${id}`)).status).toBe(204);
  });

  it("Splunk HEC and OTLP/HTTP receivers get the events", async () => {
    receiver.received.length = 0;
    const hec = (await api("POST", "/api/v1/audit/sinks", { kind: "splunk-hec", url: `${receiver.url}/services/collector/event`, secret: "hec-token" })).body.sink.id as string;
    const otlp = (await api("POST", "/api/v1/audit/sinks", { kind: "otlp", url: `${receiver.url}/v1/logs` })).body.sink.id as string;
    await touch();
    const name = `Streamed ${n}`;
    await waitFor(() => ["/services/collector/event", "/v1/logs"].every((p) => receiver.received.some((r) => r.path === p && r.body.includes(name))), 20_000);
    const hecReq = receiver.received.find((r) => r.path === "/services/collector/event" && r.body.includes(name))!;
    expect(hecReq.headers.authorization).toBe("Splunk hec-token");
    const hecEvent = hecReq.body.split("\n").map((l) => JSON.parse(l) as { event: Line; sourcetype: string }).find((e) => JSON.stringify(e).includes(name))!;
    expect(hecEvent).toMatchObject({ sourcetype: "switchboard:audit", event: { type: "audit", action: "workspace.settings_changed", workspaceId } });
    const otlpReq = receiver.received.find((r) => r.path === "/v1/logs" && r.body.includes(name))!;
    const records = (JSON.parse(otlpReq.body) as { resourceLogs: { scopeLogs: { logRecords: { body: { stringValue: string } }[] }[] }[] }).resourceLogs.flatMap((r) => r.scopeLogs.flatMap((s) => s.logRecords));
    expect(records.map((r) => JSON.parse(r.body.stringValue) as Line).some((e) => e.action === "workspace.settings_changed" && e.workspaceId === workspaceId)).toBe(true);
    for (const id of [hec, otlp]) expect((await api("DELETE", `/api/v1/audit/sinks/${id}`)).status).toBe(204);
  });

  it("refuses what it must: a blocked address is a recorded delivery error, bad bodies 400, others' sinks 404, members 403", async () => {
    const blocked = (await api("POST", "/api/v1/audit/sinks", { kind: "webhook", url: `http://127.0.0.2:${new URL(receiver.url).port}/refused` })).body.sink.id as string;
    await touch();
    await waitFor(async () => /Blocked by the outbound network policy/.test((await sink(blocked)).lastError ?? ""), 20_000);
    expect((await api("GET", "/api/v1/me")).status).toBe(200);
    expect((await api("DELETE", `/api/v1/audit/sinks/${blocked}`)).status).toBe(204);

    expect((await api("POST", "/api/v1/audit/sinks", { kind: "webhook", url: `http://127.0.0.1/${"x".repeat(3000)}` })).status).toBe(400);
    expect((await api("POST", "/api/v1/audit/sinks", { kind: "webhook", url: "http://127.0.0.1/", secret: "s".repeat(5000) })).status).toBe(400);
    expect((await api("POST", "/api/v1/audit/sinks", { kind: "ftp", url: "http://127.0.0.1/" })).status).toBe(400);
    expect((await api("POST", "/api/v1/audit/sinks", { kind: "webhook", url: "file:///etc/passwd" })).status).toBe(400);
    expect((await api("POST", "/api/v1/audit/sinks", { kind: "webhook", url: "http://127.0.0.1/", include: ["everything"] })).status).toBe(400);
    await a.db.run("INSERT INTO workspace (id, name, slug, created_at) VALUES (?, ?, ?, ?)", "ws-other", "Other", "other", new Date());
    await a.db.run("INSERT INTO audit_sink (id, workspace_id, kind, url, include, updated_at) VALUES (?, ?, ?, ?, ?, ?)", "sink-other", "ws-other", "webhook", "http://127.0.0.1/", '["audit"]', new Date());
    for (const method of ["GET", "PATCH", "DELETE"] as const) expect((await api(method, "/api/v1/audit/sinks/sink-other", method === "PATCH" ? { enabled: false } : undefined)).status).toBe(404);
    expect([400, 404]).toContain((await api("GET", "/api/v1/audit/sinks/%2e%2e%2f")).status);
    expect((await member("GET", "/api/v1/audit/sinks")).status).toBe(403);
    expect((await member("POST", "/api/v1/audit/sinks", { kind: "webhook", url: "http://127.0.0.1/" })).status).toBe(403);
    expect((await member("GET", "/api/v1/audit/verify")).status).toBe(403);
    expect((await api("PATCH", "/api/v1/workspace", { auditRetentionDays: 0 })).status).toBe(400);
  });

  it("verify names a changed row and a deleted one, and passes untouched", async () => {
    const ok = (await api("GET", "/api/v1/audit/verify")).body;
    expect(ok).toMatchObject({ ok: true, anchorSeq: 0 });
    expect(ok.checked).toBeGreaterThan(5);
    const row = (await a.db.get<Record<string, unknown>>("SELECT * FROM audit_event WHERE workspace_id = ? AND seq = 3", workspaceId))!;
    await a.db.run("UPDATE audit_event SET details = ? WHERE id = ?", '{"forged":true}', row.id);
    expect((await api("GET", "/api/v1/audit/verify")).body).toMatchObject({ ok: false, firstBroken: { seq: 3, id: row.id, reason: "changed" } });
    await a.db.run("UPDATE audit_event SET details = ? WHERE id = ?", row.details, row.id);
    expect((await api("GET", "/api/v1/audit/verify")).body.ok).toBe(true);
    await a.db.run("DELETE FROM audit_event WHERE id = ?", row.id);
    expect((await api("GET", "/api/v1/audit/verify")).body).toMatchObject({ ok: false, firstBroken: { seq: 3, id: null, reason: "missing" } });
    const cols = Object.keys(row);
    await a.db.run(`INSERT INTO audit_event (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`, ...cols.map((c) => row[c]));
    expect((await api("GET", "/api/v1/audit/verify")).body.ok).toBe(true);
  });

  it("retention purges old rows unless a legal hold is on, and the chain still verifies from its anchor", async () => {
    const old = new Date(Date.now() - 90 * DAY_MS);
    await a.db.run("UPDATE audit_event SET created_at = ? WHERE workspace_id = ? AND seq <= 4", old, workspaceId);
    const patched = await api("PATCH", "/api/v1/workspace", { auditRetentionDays: 30, legalHold: true });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.workspace).toMatchObject({ auditRetentionDays: 30, legalHold: true });
    expect((await member("PATCH", "/api/v1/workspace", { legalHold: false })).status).toBe(403);
    const since = new Date();
    const runs = async () => (await a.db.all("SELECT job FROM job_claim WHERE job = 'retention' AND finished_at IS NOT NULL AND claimed_at > ?", since)).length;
    await waitFor(async () => (await runs()) >= 2, 20_000);
    const oldRows = async () => Number((await a.db.get<{ c: number | string }>("SELECT COUNT(*) AS c FROM audit_event WHERE workspace_id = ? AND seq <= 4", workspaceId))!.c);
    expect(await oldRows()).toBe(4);

    expect((await api("PATCH", "/api/v1/workspace", { legalHold: false })).status).toBe(200);
    await waitFor(async () => Boolean(await a.db.get("SELECT id FROM audit_event WHERE workspace_id = ? AND action = 'audit.purged'", workspaceId)), 20_000);
    expect(await oldRows()).toBe(0);
    const verified = (await api("GET", "/api/v1/audit/verify")).body;
    expect(verified).toMatchObject({ ok: true, anchorSeq: 4 });
    const audited = await a.db.all<{ details: string }>("SELECT details FROM audit_event WHERE workspace_id = ? AND action = 'workspace.settings_changed' ORDER BY seq DESC LIMIT 2", workspaceId);
    expect(audited.map((r) => r.details).join()).toContain("legalHold");
    // The first remaining rows deleted: still named.
    const first = (await a.db.get<Record<string, unknown>>("SELECT * FROM audit_event WHERE workspace_id = ? AND seq = 5", workspaceId))!;
    await a.db.run("DELETE FROM audit_event WHERE id = ?", first.id);
    expect((await api("GET", "/api/v1/audit/verify")).body).toMatchObject({ ok: false, firstBroken: { seq: 5, reason: "missing" } });
    const cols = Object.keys(first);
    await a.db.run(`INSERT INTO audit_event (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`, ...cols.map((c) => first[c]));
    expect((await api("PATCH", "/api/v1/workspace", { auditRetentionDays: null })).status).toBe(200);
  });

  it("with two instances, killing the one delivering mid-request: the other delivers everything, once after dropping duplicates by id, in order", async () => {
    b = await startConsole({ dataDir, databaseUrl: a.databaseUrl, env, join: true });
    receiver.received.length = 0;
    receiver.set("hold");
    const id = (await api("POST", "/api/v1/audit/sinks", { kind: "webhook", url: `${receiver.url}/cluster` })).body.sink.id as string;
    for (let i = 0; i < 4; i++) await touch();
    await waitFor(() => receiver.held() > 0, 20_000);
    const claim = (await a.db.get<{ instance_id: string }>("SELECT instance_id FROM job_claim WHERE job = 'audit.sinks' AND key = ? AND finished_at IS NULL ORDER BY due_at DESC", id))!;
    const holder = (await a.db.get<{ pid: number }>("SELECT pid FROM instance WHERE id = ?", claim.instance_id))!;
    const [victim, survivor] = holder.pid === a.pid() ? [a, b] : [b, a];
    expect(victim.pid()).toBe(holder.pid);
    receiver.set("up");
    await victim.stop({ crash: true });
    receiver.dropHeld();
    const onSurvivor = apiClient(survivor.url, ownerToken);
    for (let i = 0; i < 2; i++) expect((await onSurvivor("PATCH", "/api/v1/workspace", { name: `After ${i}` })).status).toBe(200);
    const head = (await survivor.db.get<{ m: number }>("SELECT MAX(seq) AS m FROM audit_event WHERE workspace_id = ?", workspaceId))!.m;
    await waitFor(() => linesOf(receiver.received).some((l) => l.auditSeq === head), 30_000);
    const lines = linesOf(receiver.received);
    const unique = [...new Map(lines.map((l) => [l.id, l])).values()];
    // The held batch never got its 2xx: nothing was received twice.
    expect(lines.length - unique.length).toBe(0);
    unique.forEach((l, i) => expect(l.seq).toBe(unique[0]!.seq + i));
    expect(unique[0]!.action).toBe("audit_sink.created");
    const rows = await survivor.db.all<{ seq: number }>("SELECT seq FROM audit_event WHERE workspace_id = ? AND seq >= ? ORDER BY seq", workspaceId, unique[0]!.auditSeq);
    expect(unique.map((l) => l.auditSeq)).toEqual(rows.map((r) => r.seq));
    if (victim === a) a = survivor;
    b = undefined;
  });
});
