import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PERCENTILE_RELATIVE_ERROR } from "@/lib/domains/stats/histogram";
import { apiClient, sessionCookie, setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { insertCalls, percentileCont, type SeedCall } from "../support/seed-calls";
import { random } from "../support/random";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// Closed hours in the past: they are rolled up on the first request.
const BASE = Date.UTC(2026, 10, 10, 0);
const iso = (ms: number) => new Date(ms).toISOString();

/** A seeded pseudo-random sequence (mulberry32): the same data on both databases. */
type Api = ReturnType<typeof apiClient>;
type Call = SeedCall & { id?: string };

/** Calls of `servers` over `hours` hours from `start`: durations from 50 µs to a minute (some zero), errors, pending calls, users, origins. */
function seedCalls({ workspaceId, servers, start, hours, n, seed, instanceId }: { workspaceId: string; servers: string[]; start: number; hours: number; n: number; seed: number; instanceId: string }): Call[] {
  const rnd = random(seed);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  return Array.from({ length: n }, () => {
    const pending = rnd() < 0.03;
    const status = pending ? "pending" : pick(["ok", "ok", "ok", "ok", "error", "timeout", "interrupted", "cancelled"] as const);
    return {
      workspaceId,
      serverId: pick(servers),
      startedAt: new Date(start + Math.floor(rnd() * hours * HOUR)),
      durationMs: pending ? null : rnd() < 0.02 ? 0 : Math.round(0.05 * 1.2e6 ** rnd() * 1000) / 1000,
      status,
      name: pick(["echo", "add", "search", "fetch", "weather", "zeta"]),
      method: pick(["tools/call", "tools/call", "resources/read"]),
      userId: pick(["u-ada", "u-grace", null]),
      origin: pick(["user", "app", "card", "subscription"]),
      // Pending calls belong to the running console, which would otherwise mark them interrupted.
      instanceId: pending ? instanceId : null,
    };
  });
}

interface Expected {
  count: number;
  errors: number;
  timeouts: number;
  interrupted: number;
  failures: number;
  meanMs: number | null;
  p50: number | null;
  p95: number | null;
}

/** Calls that got an answer: the only ones whose durations count (a timeout's is its limit). */
const answered = (c: Call) => c.durationMs !== null && (c.status === "ok" || c.status === "error");

/** What the dashboard must say about `calls`, computed here exactly. */
function expected(calls: Call[]): Expected {
  const durations = calls.flatMap((c) => (answered(c) ? [c.durationMs!] : []));
  const counted = (status: string) => calls.filter((c) => c.status === status).length;
  return {
    count: calls.length,
    errors: counted("error"),
    timeouts: counted("timeout"),
    interrupted: counted("interrupted"),
    failures: counted("error") + counted("timeout") + counted("interrupted"),
    meanMs: durations.length ? durations.reduce((a, b) => a + b, 0) / durations.length : null,
    p50: percentileCont(durations, 0.5),
    p95: percentileCont(durations, 0.95),
  };
}

function expectClose(actual: Expected & Record<string, unknown>, wanted: Expected, what: string) {
  expect([actual.count, actual.errors, actual.timeouts, actual.interrupted, actual.failures], what).toEqual([wanted.count, wanted.errors, wanted.timeouts, wanted.interrupted, wanted.failures]);
  if (wanted.meanMs === null) expect(actual.meanMs ?? null, what).toBeNull();
  else if (actual.meanMs !== undefined) expect(Math.abs((actual.meanMs as number) - wanted.meanMs), what).toBeLessThan(1e-6 * Math.max(1, wanted.meanMs));
  for (const key of ["p50", "p95"] as const) {
    if (actual[key] === undefined) continue;
    if (wanted[key] === null) expect(actual[key], `${what} ${key}`).toBeNull();
    // The documented bound of the histogram's estimate, plus float noise.
    else expect(Math.abs((actual[key] as number) - wanted[key]!), `${what} ${key}: ${actual[key]} vs ${wanted[key]}`).toBeLessThanOrEqual(PERCENTILE_RELATIVE_ERROR * wanted[key]! + 1e-9);
  }
}

type Range = { from: number; to: number; bucket: string; serverId?: string };
const statsPath = ({ from, to, bucket, serverId }: Range) => `/api/v1/stats?from=${iso(from)}&to=${iso(to)}&bucket=${bucket}${serverId ? `&serverId=${serverId}` : ""}`;

/** Checks a whole dashboard answer against the calls it covers. */
async function checkStats(api: Api, calls: Call[], range: Range) {
  const res = await api("GET", statsPath(range));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return verify(res.body, calls, range);
}

function verify(body: any, calls: Call[], { from, to, bucket, serverId }: Range) {
  const inRange = calls.filter((c) => c.startedAt.getTime() >= from && c.startedAt.getTime() <= to && (!serverId || c.serverId === serverId));
  const label = `${bucket} ${serverId ?? "workspace"}`;
  expectClose(body.totals, expected(inRange), `${label} totals`);
  const width = { "5m": 5, "15m": 15, "1h": 60, "3h": 180, "6h": 360, "1d": 1440 }[bucket]! * MINUTE;
  for (const point of body.series) {
    const start = Date.parse(point.start);
    expectClose(point, expected(inRange.filter((c) => c.startedAt.getTime() >= start && c.startedAt.getTime() < start + width)), `${label} ${point.start}`);
  }
  expect(body.series.reduce((n: number, p: { count: number }) => n + p.count, 0)).toBe(inRange.length);
  const groups = (key: (c: Call) => string) => {
    const out = new Map<string, Call[]>();
    for (const c of inRange) out.set(key(c), [...(out.get(key(c)) ?? []), c]);
    return out;
  };
  const tools = groups((c) => `${c.method} ${c.name}`);
  expect(body.topTools.length).toBe(Math.min(10, tools.size));
  for (const t of body.topTools) expectClose(t, expected(tools.get(`${t.method} ${t.name}`)!), `${label} tool ${t.name}`);
  const users = groups((c) => c.userId ?? "");
  expect(body.byUser.length).toBe(users.size);
  for (const u of body.byUser) expectClose(u, expected(users.get(u.userId ?? "")!), `${label} user ${u.userId}`);
  const origins = groups((c) => c.origin!);
  expect(body.byOrigin.length).toBe(origins.size);
  for (const o of body.byOrigin) expectClose(o, expected(origins.get(o.origin)!), `${label} origin ${o.origin}`);
  // Ranked by count, largest first.
  for (const list of [body.topTools, body.byUser, body.byOrigin]) {
    expect(list.map((g: { count: number }) => g.count)).toEqual([...list.map((g: { count: number }) => g.count)].sort((a, b) => b - a));
  }
  return body;
}

/**
 * The dashboard's rollups (lib/domains/stats/rollup.ts): hours rolled up into sums and duration
 * histograms give the same answers as the call table (percentiles within the histogram's bound),
 * also after calls end late, servers are purged and retention deletes old calls; on SQLite and
 * on PostgreSQL (the integration-postgres project).
 */
describe("stats rollups", () => {
  let sb: ConsoleHandle;
  let owner: Awaited<ReturnType<typeof setupOwner>>;
  let instanceId: string;

  beforeAll(async () => {
    // A short retention interval makes the scheduled purge observable without sleeping.
    sb = await startConsole({ env: { SWITCHBOARD_RETENTION_INTERVAL_MS: "300" } });
    owner = await setupOwner(sb.url);
    instanceId = (await sb.db.get<{ id: string }>("SELECT id FROM instance"))!.id;
  });
  afterAll(async () => {
    await sb?.stop();
  });

  /** A new workspace with `n` servers and a token of its own. */
  async function workspace(name: string, n: number): Promise<{ api: Api; workspaceId: string; servers: string[] }> {
    const workspaceId = (await owner.api("POST", "/api/v1/workspaces", { name })).body.workspace.id as string;
    const cookie = await sessionCookie(sb.url, owner.email, owner.password);
    const token = (await apiClient(sb.url)("POST", "/api/v1/tokens", { name }, { cookie, "x-workspace-id": workspaceId })).body.secret as string;
    const api = apiClient(sb.url, token);
    const servers: string[] = [];
    for (let i = 0; i < n; i++) servers.push((await api("POST", "/api/v1/servers", { name: `s${i}`, url: "http://127.0.0.1:9/mcp" })).body.server.id);
    return { api, workspaceId, servers };
  }

  async function seed(calls: Call[]) {
    const ids = await insertCalls(sb.db, calls);
    calls.forEach((c, i) => (c.id = ids[i]));
  }

  const rollupRows = async (workspaceId: string, serverId?: string) =>
    Number((await sb.db.get<{ n: number | string }>(`SELECT count(*) AS n FROM call_rollup WHERE workspace_id = ?${serverId ? " AND server_id = ?" : ""}`, workspaceId, ...(serverId ? [serverId] : [])))!.n);

  it("rolled-up hours answer as the call table does, for ragged ranges, every bucket and either scope", async () => {
    const { api, workspaceId, servers } = await workspace("Rolled", 3);
    const calls = seedCalls({ workspaceId, servers, start: BASE, hours: 30, n: 2500, seed: 7, instanceId });
    await seed(calls);
    const from = BASE + HOUR + 17 * MINUTE + 3500;
    const to = BASE + 27 * HOUR + 41 * MINUTE;
    await checkStats(api, calls, { from, to, bucket: "1h" });
    // The first request rolled every closed hour up, from the oldest call on.
    const state = await sb.db.get<{ through_minute: number }>("SELECT through_minute FROM call_rollup_state WHERE workspace_id = ?", workspaceId);
    expect(Number(state!.through_minute) * MINUTE).toBeGreaterThan(BASE + 30 * HOUR);
    expect(await rollupRows(workspaceId)).toBeGreaterThan(0);
    const pending = calls.filter((c) => c.durationMs === null).length;
    expect(Number((await sb.db.get<{ n: number }>("SELECT count(*) AS n FROM call_rollup_pending WHERE workspace_id = ?", workspaceId))!.n)).toBe(pending);
    for (const bucket of ["15m", "3h", "5m"]) await checkStats(api, calls, { from, to, bucket });
    for (const serverId of servers.slice(0, 2)) await checkStats(api, calls, { from, to, bucket: "15m", serverId });
    // Ranges on hour boundaries (all from rollups) and inside one hour (all live).
    await checkStats(api, calls, { from: BASE, to: BASE + 30 * HOUR, bucket: "1h" });
    await checkStats(api, calls, { from: BASE + 5 * HOUR + MINUTE, to: BASE + 5 * HOUR + 50 * MINUTE, bucket: "5m", serverId: servers[2] });
  });

  it("a call that ends after its hour was rolled up is counted as it ended", async () => {
    const { api, workspaceId, servers } = await workspace("Late", 2);
    const calls = seedCalls({ workspaceId, servers, start: BASE, hours: 4, n: 300, seed: 11, instanceId });
    const late: Call = { workspaceId, serverId: servers[0]!, startedAt: new Date(BASE + 2 * HOUR + 5 * MINUTE), durationMs: null, name: "long-task", userId: null, origin: "user", instanceId };
    calls.push(late);
    await seed(calls);
    const range = { from: BASE, to: BASE + 4 * HOUR, bucket: "1h", serverId: servers[0] };
    const before = await checkStats(api, calls, range);
    expect(await sb.db.get("SELECT call_id FROM call_rollup_pending WHERE call_id = ?", late.id)).toBeDefined();
    // The task ends hours later with an error, as the console records it.
    const finished = sb.db.provider === "sqlite" ? iso(BASE + 9 * HOUR).replace("Z", "+00:00") : iso(BASE + 9 * HOUR);
    await sb.db.run(`UPDATE "call" SET status = 'error', duration_ms = 25200000, finished_at = ${sb.db.provider === "sqlite" ? "?" : "CAST(? AS timestamp(3))"} WHERE id = ?`, finished, late.id);
    Object.assign(late, { status: "error", durationMs: 25_200_000 });
    const after = await checkStats(api, calls, range);
    expect(after.totals.errors).toBe(before.totals.errors + 1);
    expect(after.totals.meanMs).toBeGreaterThan(before.totals.meanMs);
    expect((await sb.db.get("SELECT call_id FROM call_rollup_pending WHERE call_id = ?", late.id))).toBeUndefined();
  });

  it("whole days are read from day rows that answer as their hours and the call table do, also after a call ends late", async () => {
    const { api, workspaceId, servers } = await workspace("Days", 2);
    const calls = seedCalls({ workspaceId, servers, start: BASE - 2 * DAY, hours: 4 * 24, n: 2000, seed: 23, instanceId });
    await seed(calls);
    // Two whole days inside, ragged hours and quarter hours at both ends.
    const range = { from: BASE - 2 * DAY + 5 * HOUR + 7 * MINUTE + 250, to: BASE + 2 * DAY - 3 * HOUR - 20 * MINUTE, bucket: "1d" };
    await checkStats(api, calls, range);
    const dayRows = async () => Number((await sb.db.get<{ n: number | string }>("SELECT count(*) AS n FROM call_rollup WHERE workspace_id = ? AND grain = 1440", workspaceId))!.n);
    expect(await dayRows()).toBeGreaterThan(0);
    for (const bucket of ["6h", "3h"]) await checkStats(api, calls, { ...range, bucket });
    await checkStats(api, calls, { ...range, serverId: servers[1] });
    await checkStats(api, calls, { from: BASE - 2 * DAY, to: BASE + 2 * DAY, bucket: "1d", serverId: servers[0] });
    // A call pending inside a whole day ends: its hour and its day are rebuilt alike.
    const late = calls.find((c) => c.durationMs === null && c.startedAt.getTime() >= BASE && c.startedAt.getTime() < BASE + DAY)!;
    const finished = sb.db.provider === "sqlite" ? iso(BASE + 3 * DAY).replace("Z", "+00:00") : iso(BASE + 3 * DAY);
    await sb.db.run(`UPDATE "call" SET status = 'ok', duration_ms = 9000000, finished_at = ${sb.db.provider === "sqlite" ? "?" : "CAST(? AS timestamp(3))"} WHERE id = ?`, finished, late.id);
    Object.assign(late, { status: "ok", durationMs: 9_000_000 });
    const after = await checkStats(api, calls, range);
    expect(after.totals.meanMs).toBeGreaterThan(0);
    expect(await sb.db.get("SELECT call_id FROM call_rollup_pending WHERE call_id = ?", late.id)).toBeUndefined();
    const day = await sb.db.get<{ timed: number | string; duration_max: number }>("SELECT timed, duration_max FROM call_rollup WHERE workspace_id = ? AND server_id = '' AND grain = 1440 AND kind = 'total' AND start_minute = ?", workspaceId, BASE / MINUTE);
    expect(Number(day!.timed)).toBe(calls.filter((c) => answered(c) && c.startedAt.getTime() >= BASE && c.startedAt.getTime() < BASE + DAY).length);
    expect(Number(day!.duration_max)).toBe(9_000_000);
  });

  it("purging a server takes its calls out of the workspace's figures", async () => {
    const { api, workspaceId, servers } = await workspace("Purge", 3);
    const calls = seedCalls({ workspaceId, servers, start: BASE, hours: 8, n: 600, seed: 13, instanceId }).filter((c) => c.durationMs !== null);
    await seed(calls);
    const range = { from: BASE, to: BASE + 8 * HOUR, bucket: "1h" };
    await checkStats(api, calls, range);
    const gone = servers[1]!;
    expect(await rollupRows(workspaceId, gone)).toBeGreaterThan(0);
    expect((await api("DELETE", `/api/v1/servers/${gone}`)).status).toBe(204);
    const confirm = calls.filter((c) => c.serverId === gone).length;
    const purge = await api("POST", `/api/v1/servers/${gone}/purge`, { confirm });
    expect(purge.status, JSON.stringify(purge.body)).toBe(200);
    const kept = calls.filter((c) => c.serverId !== gone);
    const body = await checkStats(api, kept, range);
    expect(body.totals.count).toBe(kept.length);
    expect(await rollupRows(workspaceId, gone)).toBe(0);
  });

  it("retention: hours purged drop out, the hour the cutoff cuts is rebuilt, calls still pending stay", async () => {
    const { api, workspaceId, servers } = await workspace("Retention", 2);
    const now = Date.now();
    const start = now - 50 * HOUR;
    const calls = seedCalls({ workspaceId, servers, start, hours: 48, n: 800, seed: 17, instanceId });
    await seed(calls);
    const range = { from: start, to: now, bucket: "1h" };
    await checkStats(api, calls, range);
    expect((await api("PATCH", "/api/v1/workspace", { retentionDays: 1 })).status).toBe(200);
    await waitFor(async () => Boolean(await sb.db.get("SELECT id FROM audit_event WHERE workspace_id = ? AND action = 'retention.purged'", workspaceId)));
    // No further purge (its cutoff moves on with the clock) while the answer is checked.
    expect((await api("PATCH", "/api/v1/workspace", { retentionDays: null })).status).toBe(200);
    const remaining = new Set((await sb.db.all<{ id: string }>(`SELECT id FROM "call" WHERE workspace_id = ?`, workspaceId)).map((r) => r.id));
    const kept = calls.filter((c) => remaining.has(c.id!));
    // Some calls went, some finished ones stayed (the cutoff falls inside the range), pending ones all stayed.
    expect(kept.length).toBeLessThan(calls.length);
    expect(kept.some((c) => c.startedAt.getTime() < now - 24 * HOUR && c.durationMs === null)).toBe(true);
    expect(kept.filter((c) => c.durationMs !== null).length).toBeGreaterThan(0);
    const body = await checkStats(api, kept, range);
    expect(body.totals.count).toBe(kept.length);
  });

  it("concurrent first requests agree and build each rollup row once", async () => {
    const { api, workspaceId, servers } = await workspace("Concurrent", 2);
    const calls = seedCalls({ workspaceId, servers, start: BASE - 60 * HOUR, hours: 60, n: 1500, seed: 19, instanceId });
    await seed(calls);
    const range = { from: BASE - 60 * HOUR, to: BASE, bucket: "3h" };
    const answers = await Promise.all(Array.from({ length: 6 }, () => api("GET", statsPath(range))));
    // On PostgreSQL those that find the rollup under way count its hours live: the same answers.
    for (const res of answers) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      verify(res.body, calls, range);
    }
    const rows = await rollupRows(workspaceId);
    await checkStats(api, calls, range);
    expect(await rollupRows(workspaceId)).toBe(rows);
  });
});
