import { databaseProvider, prisma, sql } from "@/lib/db/client";
import type { Prisma } from "@prisma/client";

type Fragment = Prisma.Sql;
type Num = number | bigint | string | null;

export interface StatsScope {
  workspaceId: string;
  /** The servers whose calls count: one, or all of the workspace's (archived ones too). */
  serverIds: string[];
  from: Date;
  to: Date;
}

const postgres = databaseProvider === "postgresql";
const num = (v: Num): number => Number(v ?? 0);
const numOrNull = (v: Num): number | null => (v === null || v === undefined ? null : Number(v));

// SQLite keeps DateTime as the text Prisma's adapter writes ("…T20:02:56.839+00:00"), compared as
// text; PostgreSQL's timestamp(3) holds UTC wall time, which an ISO string cast to timestamp gives.
function instant(d: Date): Fragment {
  const iso = d.toISOString();
  return postgres ? sql.sql`CAST(${iso} AS timestamp(3))` : sql.sql`${iso.replace("Z", "+00:00")}`;
}

/**
 * Naming every server, even for the whole workspace, turns the range into one short scan of
 * call_stats_idx (workspace, server, started_at, …) per server: a single index serves both scopes.
 */
function scopeWhere({ workspaceId, serverIds, from, to }: StatsScope): Fragment {
  const servers = serverIds.length ? sql.sql`server_id IN (${sql.join(serverIds)})` : sql.sql`1 = 0`;
  return sql.sql`workspace_id = ${workspaceId} AND ${servers} AND started_at >= ${instant(from)} AND started_at <= ${instant(to)}`;
}

// Without statistics SQLite would rather walk an index that hands user_id in order, reading every row.
const calls = postgres ? sql.sql`"call"` : sql.sql`"call" INDEXED BY call_stats_idx`;

/** Whole seconds since the epoch, truncated alike on both databases, divided into buckets of `width` seconds. */
function bucketStart(width: number): Fragment {
  const w = sql.raw(String(Math.trunc(width)));
  return postgres
    ? sql.sql`(floor(extract(epoch from started_at))::bigint / ${w}) * ${w}`
    : sql.sql`(CAST(strftime('%s', started_at) AS INTEGER) / ${w}) * ${w}`;
}

const errors = sql.sql`sum(CASE WHEN status = 'error' THEN 1 ELSE 0 END)`;

export interface Percentiles {
  p50: number | null;
  p95: number | null;
}

/**
 * p50 and p95 of `duration_ms` per group, with PostgreSQL's `percentile_cont` semantics (linear
 * interpolation between the ranks around p·(n−1)). SQLite has no percentile function: the ranks
 * come from one window sort, and the interpolation is the same double arithmetic, so both
 * databases give the same answers.
 */
async function percentiles(scope: StatsScope, group: Fragment): Promise<Map<string, Percentiles>> {
  const where = scopeWhere(scope);
  const out = new Map<string, Percentiles>();
  if (postgres) {
    const rows = await prisma.$queryRaw<{ g: Num; p50: Num; p95: Num }[]>`
      SELECT ${group} AS g,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms) AS p50,
        percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) AS p95
      FROM ${calls} WHERE ${where} AND duration_ms IS NOT NULL GROUP BY 1`;
    for (const r of rows) out.set(String(r.g), { p50: numOrNull(r.p50), p95: numOrNull(r.p95) });
    return out;
  }
  const rank = (p: string, k: 1 | 2) => sql.raw(`CAST(${p} * (n - 1) AS INTEGER) + ${k}`);
  const frac = (p: string) => sql.raw(`${p} * (n - 1) - CAST(${p} * (n - 1) AS INTEGER)`);
  const rows = await prisma.$queryRaw<{ g: Num; lo50: Num; hi50: Num; f50: Num; lo95: Num; hi95: Num; f95: Num }[]>`
    WITH d AS (SELECT ${group} AS g, duration_ms AS v FROM ${calls} WHERE ${where} AND duration_ms IS NOT NULL),
    r AS (
      SELECT g, v, ROW_NUMBER() OVER w AS rn, COUNT(*) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS n
      FROM d WINDOW w AS (PARTITION BY g ORDER BY v)
    )
    SELECT g,
      max(CASE WHEN rn = ${rank("0.5", 1)} THEN v END) AS lo50, max(CASE WHEN rn = ${rank("0.5", 2)} THEN v END) AS hi50, max(${frac("0.5")}) AS f50,
      max(CASE WHEN rn = ${rank("0.95", 1)} THEN v END) AS lo95, max(CASE WHEN rn = ${rank("0.95", 2)} THEN v END) AS hi95, max(${frac("0.95")}) AS f95
    FROM r
    WHERE rn IN (${rank("0.5", 1)}, ${rank("0.5", 2)}, ${rank("0.95", 1)}, ${rank("0.95", 2)})
    GROUP BY g`;
  const lerp = (lo: Num, hi: Num, f: Num): number | null => {
    if (lo === null) return null;
    const low = Number(lo);
    return hi === null || Number(f) === 0 ? low : low + Number(f) * (Number(hi) - low);
  };
  for (const r of rows) out.set(String(r.g), { p50: lerp(r.lo50, r.hi50, r.f50), p95: lerp(r.lo95, r.hi95, r.f95) });
  return out;
}

export interface SeriesRow extends Percentiles {
  /** Bucket start, seconds since the epoch. */
  start: number;
  count: number;
  errors: number;
}

/** Calls, errors and percentiles per bucket of `width` seconds; only buckets that hold calls. */
export async function seriesRows({ scope, width }: { scope: StatsScope; width: number }): Promise<SeriesRow[]> {
  const bucket = bucketStart(width);
  const [rows, pct] = await Promise.all([
    prisma.$queryRaw<{ b: Num; count: Num; errors: Num }[]>`
      SELECT ${bucket} AS b, count(*) AS count, ${errors} AS errors FROM ${calls} WHERE ${scopeWhere(scope)} GROUP BY 1 ORDER BY 1`,
    percentiles(scope, bucket),
  ]);
  return rows.map((r) => ({ start: num(r.b), count: num(r.count), errors: num(r.errors), ...(pct.get(String(num(r.b))) ?? { p50: null, p95: null }) }));
}

export interface GroupRow {
  count: number;
  errors: number;
  meanMs: number | null;
}

/** Calls, errors and mean duration of the whole range, with its p50 and p95. */
export async function totalRow({ scope }: { scope: StatsScope }): Promise<GroupRow & Percentiles> {
  const [[row], pct] = await Promise.all([
    prisma.$queryRaw<{ count: Num; errors: Num; mean: Num }[]>`
      SELECT count(*) AS count, ${errors} AS errors, avg(duration_ms) AS mean FROM ${calls} WHERE ${scopeWhere(scope)}`,
    percentiles(scope, sql.sql`0`),
  ]);
  return { count: num(row?.count ?? 0), errors: num(row?.errors ?? 0), meanMs: numOrNull(row?.mean ?? null), ...(pct.get("0") ?? { p50: null, p95: null }) };
}

const GROUPS = {
  tool: { columns: sql.sql`method, name`, limit: 10 },
  user: { columns: sql.sql`user_id`, limit: 10 },
  origin: { columns: sql.sql`origin`, limit: 50 },
} as const;

type GroupKeys = { tool: { method: string; name: string }; user: { user_id: string | null }; origin: { origin: string } };

/** The largest groups of the range by number of calls (ties by key, so the order is stable). */
export async function groupRows<K extends keyof typeof GROUPS>({ scope, by }: { scope: StatsScope; by: K }): Promise<(GroupRow & GroupKeys[K])[]> {
  const { columns, limit } = GROUPS[by];
  const rows = await prisma.$queryRaw<(GroupKeys[K] & { count: Num; errors: Num; mean: Num })[]>`
    SELECT ${columns}, count(*) AS count, ${errors} AS errors, avg(duration_ms) AS mean
    FROM ${calls} WHERE ${scopeWhere(scope)} GROUP BY ${columns} ORDER BY count(*) DESC, ${columns} LIMIT ${sql.raw(String(limit))}`;
  return rows.map(({ count, errors: e, mean, ...key }) => ({ ...(key as unknown as GroupKeys[K]), count: num(count), errors: num(e), meanMs: numOrNull(mean) }));
}

/** Users' names: their current one, else (they have left) the one on their latest call that has one. */
export async function userNames({ workspaceId, userIds }: { workspaceId: string; userIds: string[] }): Promise<Map<string, string | null>> {
  const users = await prisma.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } });
  const names = new Map<string, string | null>(users.map((u) => [u.id, u.name]));
  const gone = userIds.filter((id) => !names.has(id));
  const rows = await Promise.all(
    gone.map((userId) =>
      prisma.call.findFirst({ where: { workspaceId, userId, userName: { not: null } }, orderBy: { startedAt: "desc" }, select: { userName: true } }),
    ),
  );
  gone.forEach((id, i) => names.set(id, rows[i]?.userName ?? null));
  return names;
}

/** The ids of the workspace's servers, archived ones too (their calls stay in history). */
export async function serverIds({ workspaceId }: { workspaceId: string }): Promise<string[]> {
  return (await prisma.server.findMany({ where: { workspaceId }, select: { id: true } })).map((s) => s.id);
}
