import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, sessionCookie, setupOwner, startConsole, type ConsoleHandle } from "../support/console";
import { PERCENTILE_RELATIVE_ERROR } from "@/lib/domains/stats/histogram";
import { insertCalls, percentileCont, type SeedCall } from "../support/seed-calls";
import { random } from "../support/random";

const HOUR = 3_600_000;
// A fixed past hour, so buckets and ranges never depend on when the test runs.
const BASE = Date.UTC(2026, 10, 20, 10);
const at = (ms: number) => new Date(BASE + ms);
const iso = (ms: number) => at(ms).toISOString();

/** Percentiles are estimated from duration histograms: within the documented relative error of percentile_cont's answer. */
function expectNear(actual: number | null, exact: number | null) {
  if (exact === null) return expect(actual).toBeNull();
  expect(Math.abs(actual! - exact), `${actual} vs ${exact}`).toBeLessThanOrEqual(PERCENTILE_RELATIVE_ERROR * exact + 1e-9);
}

/** A seeded pseudo-random sequence (mulberry32): the same data on both databases. */
/**
 * GET /api/v1/stats: every figure is checked against a reference computed here from the seeded
 * calls, on SQLite and on PostgreSQL (the integration-postgres project), so both databases are
 * shown to give the same answers.
 */
describe("stats", () => {
  let sb: ConsoleHandle;
  let owner: Awaited<ReturnType<typeof setupOwner>>;
  let api: Awaited<ReturnType<typeof setupOwner>>["api"];
  let workspaceId: string;
  let ownerId: string;
  let mainId: string;
  let otherId: string;
  let randomId: string;
  let flakyId: string;
  const randomCalls: SeedCall[] = [];

  beforeAll(async () => {
    sb = await startConsole();
    owner = await setupOwner(sb.url);
    api = owner.api;
    workspaceId = owner.workspace.id;
    const me = (await api("GET", "/api/v1/me")).body;
    ownerId = (me.user ?? me).id;
    const server = async (name: string) => (await api("POST", "/api/v1/servers", { name, url: "http://127.0.0.1:9/mcp" })).body.server.id as string;
    [mainId, otherId, randomId, flakyId] = [await server("main"), await server("other"), await server("random"), await server("flaky")];
    const c = (ms: number, durationMs: number | null, extra: Partial<SeedCall> = {}): SeedCall => ({ workspaceId, serverId: mainId, startedAt: at(ms), durationMs, userId: ownerId, userName: "Ada Owner", ...extra });
    await insertCalls(sb.db, [
      // 10:00–11:00: five finished calls, one an error; one pending
      c(0, 10), c(60_000, 20), c(HOUR - 1, 30), c(120_000, 40, { name: "add" }), c(180_000, 100, { status: "error", name: "add" }),
      c(240_000, null, { origin: "app" }),
      // 11:00–12:00: one call exactly at the bucket's start, by a user who has left
      c(HOUR, 5, { userId: "u-gone", userName: "Grace", origin: "card" }),
      // 12:00–13:00 stays empty; 13:00 exactly is the range's inclusive end (another server)
      c(3 * HOUR, 7, { serverId: otherId, name: "other", method: "prompts/get", origin: "app", status: "timeout" }),
      // just outside the range on both sides
      c(-1, 1000), c(3 * HOUR + 1, 1000),
    ]);
    // Another day: 600 calls of one server with random durations (ties and fractions) over six hours.
    const rnd = random(42);
    for (let i = 0; i < 600; i++) {
      randomCalls.push({
        workspaceId,
        serverId: randomId,
        startedAt: at(24 * HOUR + Math.floor(rnd() * 6 * HOUR)),
        durationMs: rnd() < 0.05 ? null : rnd() < 0.2 ? 50 : Math.round(rnd() * 1e6) / 100,
        status: rnd() < 0.1 ? "error" : "ok",
        name: `tool_${Math.floor(rnd() * 14)}`,
        userId: ownerId,
      });
    }
    await insertCalls(sb.db, randomCalls);
    // Two days on: one call of each ending (a timeout's duration is its limit, a cancelled call's when someone gave up).
    const f = (ms: number, durationMs: number | null, status: string): SeedCall => ({ workspaceId, serverId: flakyId, startedAt: at(48 * HOUR + ms), durationMs, status, name: "flaky" });
    await insertCalls(sb.db, [f(0, 10, "ok"), f(1000, 20, "error"), f(2000, 60_000, "timeout"), f(3000, null, "interrupted"), f(4000, 5000, "cancelled"), f(5000, 30, "ok")]);
  });
  afterAll(async () => {
    await sb?.stop();
  });

  const stats = (query: string) => api("GET", `/api/v1/stats?${query}`);

  it("counts, errors and percentiles per bucket, with empty buckets and inclusive range ends", async () => {
    const res = await stats(`from=${iso(0)}&to=${iso(3 * HOUR)}&bucket=1h`);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.bucket).toBe("1h");
    expect(body.series.map((p: { start: string }) => p.start)).toEqual([0, 1, 2, 3].map((h) => iso(h * HOUR)));
    expect(body.series.map((p: { count: number }) => p.count)).toEqual([6, 1, 0, 1]);
    expect(body.series.map((p: { errors: number }) => p.errors)).toEqual([1, 0, 0, 0]);
    expect(body.series.map((p: { timeouts: number }) => p.timeouts)).toEqual([0, 0, 0, 1]);
    expect(body.series.map((p: { failures: number }) => p.failures)).toEqual([1, 0, 0, 1]);
    // [10, 20, 30, 40, 100]: p95 sits at rank 3.8, 40 + 0.8 × 60; the pending call has no duration
    expectNear(body.series[0].p50, 30);
    expectNear(body.series[0].p95, 88);
    expect([body.series[1].p50, body.series[1].p95]).toEqual([5, 5]);
    expect([body.series[2].p50, body.series[2].p95]).toEqual([null, null]);
    // 13:00 holds only a timeout: no answer, so no duration to rank
    expect([body.series[3].p50, body.series[3].p95]).toEqual([null, null]);
    expect(body.totals).toMatchObject({ count: 8, errors: 1, timeouts: 1, interrupted: 0, failures: 2 });
    expectNear(body.totals.p50, percentileCont([10, 20, 30, 40, 100, 5], 0.5));
    expectNear(body.totals.p95, percentileCont([10, 20, 30, 40, 100, 5], 0.95));
    expect(body.totals.meanMs).toBeCloseTo(205 / 6, 9);
  });

  it("ranks tools, users and origins", async () => {
    const { body } = await stats(`from=${iso(0)}&to=${iso(3 * HOUR)}`);
    const none = { errors: 0, timeouts: 0, interrupted: 0, failures: 0 };
    expect(body.topTools.map((t: object) => ({ ...t, meanMs: undefined }))).toEqual([
      { method: "tools/call", name: "echo", count: 5, ...none, meanMs: undefined },
      { method: "tools/call", name: "add", count: 2, ...none, errors: 1, failures: 1, meanMs: undefined },
      { method: "prompts/get", name: "other", count: 1, ...none, timeouts: 1, failures: 1, meanMs: undefined },
    ]);
    expect(body.topTools[1].meanMs).toBe(70);
    expect(body.topTools[2].meanMs).toBeNull();
    // Grace has left the workspace: her name comes from her calls
    expect(body.byUser).toEqual([
      { userId: ownerId, userName: "Ada Owner", count: 7, errors: 1, timeouts: 1, interrupted: 0, failures: 2, meanMs: 40 },
      { userId: "u-gone", userName: "Grace", count: 1, ...none, meanMs: 5 },
    ]);
    expect(body.byOrigin).toEqual([
      { origin: "user", count: 5, ...none, errors: 1, failures: 1, meanMs: 40 },
      { origin: "app", count: 2, ...none, timeouts: 1, failures: 1, meanMs: null },
      { origin: "card", count: 1, ...none, meanMs: 5 },
    ]);
  });

  it("narrows to one server", async () => {
    const { body } = await stats(`serverId=${otherId}&from=${iso(0)}&to=${iso(3 * HOUR)}&bucket=1h`);
    expect(body.serverId).toBe(otherId);
    expect(body.totals).toMatchObject({ count: 1, errors: 0, timeouts: 1, failures: 1, p50: null, p95: null, meanMs: null });
    expect(body.series.map((p: { count: number }) => p.count)).toEqual([0, 0, 0, 1]);
    expect(body.topTools).toEqual([{ method: "prompts/get", name: "other", count: 1, errors: 0, timeouts: 1, interrupted: 0, failures: 1, meanMs: null }]);
  });

  it("counts timeouts and interrupted calls as failures apart from errors; durations are those of answered calls", async () => {
    const { body } = await stats(`serverId=${flakyId}&from=${iso(48 * HOUR)}&to=${iso(49 * HOUR)}&bucket=1h`);
    expect(body.totals).toMatchObject({ count: 6, errors: 1, timeouts: 1, interrupted: 1, failures: 3 });
    // ok 10, error 20, ok 30: neither the 60 s timeout nor the cancelled call's 5 s
    expectNear(body.totals.p50, 20);
    expect(body.totals.meanMs).toBe(20);
    expectNear(body.totals.p95, percentileCont([10, 20, 30], 0.95));
    expect(body.series[0]).toMatchObject({ count: 6, errors: 1, timeouts: 1, interrupted: 1, failures: 3 });
    expectNear(body.series[0].p50, 20);
    expect(body.topTools).toEqual([{ method: "tools/call", name: "flaky", count: 6, errors: 1, timeouts: 1, interrupted: 1, failures: 3, meanMs: 20 }]);
    const history = async (status: string) => (await api("GET", `/api/v1/calls?limit=200&serverId=${flakyId}&origin=any&status=${status}`)).body.items.length as number;
    expect([await history("error"), await history("timeout"), await history("interrupted")]).toEqual([1, 1, 1]);
  });

  it("estimates percentile_cont's answers within the histogram's bound on many calls with ties and fractions", async () => {
    const { body } = await stats(`serverId=${randomId}&from=${iso(24 * HOUR)}&to=${iso(30 * HOUR)}&bucket=15m`);
    expect(body.series).toHaveLength(25);
    for (const point of body.series) {
      const start = Date.parse(point.start);
      const inside = randomCalls.filter((c) => c.startedAt.getTime() >= start && c.startedAt.getTime() < start + 15 * 60_000);
      const durations = inside.flatMap((c) => (c.durationMs === null ? [] : [c.durationMs]));
      expect(point.count).toBe(inside.length);
      expect(point.errors).toBe(inside.filter((c) => c.status === "error").length);
      for (const [key, p] of [["p50", 0.5], ["p95", 0.95]] as const) expectNear(point[key], percentileCont(durations, p));
    }
    const all = randomCalls.flatMap((c) => (c.durationMs === null ? [] : [c.durationMs]));
    expect(body.totals.count).toBe(600);
    expectNear(body.totals.p95, percentileCont(all, 0.95));
    const counts = new Map<string, number>();
    for (const c of randomCalls) counts.set(c.name!, (counts.get(c.name!) ?? 0) + 1);
    expect(body.topTools).toHaveLength(10);
    for (const tool of body.topTools) expect(tool.count).toBe(counts.get(tool.name));
    expect(body.topTools[0].count).toBe(Math.max(...counts.values()));
  });

  it("derives the bucket from the range and defaults to the last 24 hours", async () => {
    expect((await stats(`from=${iso(0)}&to=${iso(HOUR)}`)).body.bucket).toBe("1m");
    expect((await stats(`from=${iso(0)}&to=${iso(7 * 24 * HOUR)}`)).body.bucket).toBe("3h");
    expect((await stats(`from=${iso(0)}&to=${iso(90 * 24 * HOUR)}`)).body.bucket).toBe("1d");
    const { body } = await stats("");
    expect(body.bucket).toBe("15m");
    expect(Date.parse(body.to) - Date.parse(body.from)).toBe(24 * HOUR);
    expect(body.series.length).toBeGreaterThanOrEqual(96);
  });

  it("matches history filtered the same way", async () => {
    const range = `from=${iso(0)}&to=${iso(3 * HOUR)}`;
    const { body } = await stats(range);
    const history = async (filter: string) => (await api("GET", `/api/v1/calls?limit=200&${range}&${filter}`)).body.items.length as number;
    for (const o of body.byOrigin) expect(await history(`origin=${o.origin}`)).toBe(o.count);
    for (const t of body.topTools) expect(await history(`name=${t.name}`)).toBe(t.count);
    expect(await history("status=error")).toBe(body.totals.errors);
    expect(await history(`userId=u-gone`)).toBe(1);
  });

  it("counts only the asking workspace's calls and refuses another workspace's server", async () => {
    const second = (await api("POST", "/api/v1/workspaces", { name: "Second" })).body.workspace.id as string;
    const cookie = await sessionCookie(sb.url, owner.email, owner.password);
    const token = (await apiClient(sb.url)("POST", "/api/v1/tokens", { name: "second" }, { cookie, "x-workspace-id": second })).body.secret as string;
    const other = apiClient(sb.url, token);
    const range = `from=${iso(0)}&to=${iso(3 * HOUR)}`;
    const { body } = await other("GET", `/api/v1/stats?${range}`);
    expect(body.totals.count).toBe(0);
    expect(body.series.every((p: { count: number }) => p.count === 0)).toBe(true);
    expect(body.topTools).toEqual([]);
    const res = await other("GET", `/api/v1/stats?${range}&serverId=${mainId}`);
    expect([res.status, res.body.error.code]).toEqual([404, "not_found"]);
  });

  it("answers bad input with the error shape, never a 500", async () => {
    const bad = async (query: string, status: number, code: string, message?: RegExp) => {
      const res = await stats(query);
      expect(res.status, query).toBe(status);
      expect(res.body.error.code).toBe(code);
      if (message) expect(res.body.error.message).toMatch(message);
    };
    await bad(`from=${iso(HOUR)}&to=${iso(0)}`, 400, "bad_request", /from must be before to/);
    await bad(`from=${iso(0)}&to=${iso(0)}`, 400, "bad_request", /before/);
    await bad(`from=${iso(0)}&to=${iso(400 * 24 * HOUR)}`, 400, "bad_request", /366 days/);
    await bad(`from=${iso(0)}&to=${iso(30 * 24 * HOUR)}&bucket=1m`, 400, "bad_request", /1000 buckets/);
    await bad("from=yesterday", 400, "bad_request");
    await bad("bucket=2m", 400, "bad_request");
    await bad("serverId=no-such-server", 404, "not_found");
    await bad(`serverId=${"x".repeat(500)}`, 400, "bad_request");
  });
});
