import { databaseProvider, sql } from "@/lib/core/db/client";
import type { Prisma } from "@prisma/client";
import { BINS_PER_DOUBLING, FIRST_BIN_OFFSET, LAST_BIN, emptySummary, type Summary } from "./histogram";

// SQL shared by the rollup writer and the dashboard's reads (no "server-only": the retention
// scheduler, outside Next, reaches the rollups through lib/start).

export type Fragment = Prisma.Sql;
export type Num = number | bigint | string | null;

export const postgres = databaseProvider === "postgresql";
export const num = (v: Num | undefined): number => Number(v ?? 0);
const numOrNull = (v: Num | undefined): number | null => (v === null || v === undefined ? null : Number(v));

// SQLite keeps DateTime as the text Prisma's adapter writes ("…T20:02:56.839+00:00"), compared as
// text; PostgreSQL's timestamp(3) holds UTC wall time, which an ISO string cast to timestamp gives.
export function instant(d: Date): Fragment {
  const iso = d.toISOString();
  return postgres ? sql.sql`CAST(${iso} AS timestamp(3))` : sql.sql`${iso.replace("Z", "+00:00")}`;
}

// Without statistics SQLite would rather walk an index that hands user_id in order, reading every row.
export const calls = postgres ? sql.sql`"call"` : sql.sql`"call" INDEXED BY call_stats_idx`;

/**
 * Naming every server, even for the whole workspace, turns a time range into one short scan of
 * call_stats_idx (workspace, server, started_at, …) per server: a single index serves both scopes.
 */
export function serversWhere(workspaceId: string, serverIds: string[]): Fragment {
  const servers = serverIds.length ? sql.sql`server_id IN (${sql.join(serverIds)})` : sql.sql`1 = 0`;
  return sql.sql`workspace_id = ${workspaceId} AND ${servers}`;
}

/** Whole seconds since the epoch of started_at, truncated alike on both databases. */
export const epochSeconds = postgres ? sql.sql`floor(extract(epoch from started_at))::bigint` : sql.sql`CAST(strftime('%s', started_at) AS INTEGER)`;

/** Start of the `width`-second bucket holding started_at, in seconds since the epoch. */
export function bucketStart(width: number): Fragment {
  const w = sql.raw(String(Math.trunc(width)));
  return sql.sql`(${epochSeconds} / ${w}) * ${w}`;
}

/**
 * The duration of a call that got an answer (status ok or error), else null: a timeout's duration
 * is its limit and a cancelled call's is when someone gave up, neither how long the server took.
 */
const answeredMs = sql.sql`(CASE WHEN status IN ('ok', 'error') THEN duration_ms END)`;

/** The histogram bin of answeredMs (lib/domains/stats/histogram.ts binOf); null without one. */
const log2 = postgres ? sql.sql`ln(${answeredMs}) / ln(2)` : sql.sql`log2(${answeredMs})`;
const [greatest, least] = postgres ? ["greatest", "least"] : ["max", "min"];
export const durationBin = sql.sql`CASE WHEN ${answeredMs} IS NULL THEN NULL WHEN ${answeredMs} <= 0 THEN 0 ELSE ${sql.raw(greatest)}(1, ${sql.raw(least)}(${sql.raw(String(LAST_BIN))}, CAST(floor(${log2} * ${sql.raw(String(BINS_PER_DOUBLING))}) AS INTEGER) + ${sql.raw(String(FIRST_BIN_OFFSET))})) END`;

const statusCount = (status: string) => sql.sql`sum(CASE WHEN status = ${sql.raw(`'${status}'`)} THEN 1 ELSE 0 END)`;

/**
 * A computed float as the query's result. SQLite's Prisma adapter types a column without a
 * declared type by its first value, and a whole number there truncates every later one: on
 * SQLite the value travels as text with every digit (`num` reads it back).
 */
export function real(expr: Fragment): Fragment {
  return postgres ? expr : sql.sql`(CASE WHEN (${expr}) IS NULL THEN NULL ELSE printf('%.17g', ${expr}) END)`;
}

/** The sums every summary query selects, over the calls of its group. */
export const summaryColumns = sql.sql`count(*) AS count, ${statusCount("error")} AS errors, ${statusCount("timeout")} AS timeouts, ${statusCount("interrupted")} AS interrupted, count(${answeredMs}) AS timed, ${real(sql.sql`coalesce(sum(${answeredMs}), 0)`)} AS total, ${real(sql.sql`min(${answeredMs})`)} AS least, ${real(sql.sql`max(${answeredMs})`)} AS greatest`;

/** The same sums read from call_rollup rows. */
export const rollupColumns = sql.sql`count, errors, timeouts, interrupted, timed, duration_sum AS total, duration_min AS least, duration_max AS greatest`;

export interface SummaryRow {
  count: Num;
  errors: Num;
  timeouts: Num;
  interrupted: Num;
  timed: Num;
  total: Num;
  least: Num;
  greatest: Num;
}

/** A summary from a row of summaryColumns (its histogram, if any, filled by the caller). */
export function summaryOf(r: SummaryRow): Summary {
  return { ...emptySummary(), count: num(r.count), errors: num(r.errors), timeouts: num(r.timeouts), interrupted: num(r.interrupted), timed: num(r.timed), sum: num(r.total), min: numOrNull(r.least), max: numOrNull(r.greatest) };
}
