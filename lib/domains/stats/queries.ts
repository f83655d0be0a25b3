import { prisma, sql } from "@/lib/core/db/client";
import { decodeBins, emptySummary, mergeSummary, type Summary } from "./histogram";
import { coversOf, GRAINS, seriesGrains, type Cover } from "./cover";
import { bucketStart, calls, durationBin, instant, num, real, rollupColumns, serversWhere, summaryColumns, summaryOf, type Fragment, type Num, type SummaryRow } from "./sql";

export interface StatsScope {
  workspaceId: string;
  /** The servers whose calls count: one, or all of the workspace's (archived ones too). */
  serverIds: string[];
  /** The one server asked for, or null for the whole workspace (its rollup rows have server ""). */
  serverId: string | null;
  from: Date;
  to: Date;
}

/** A call that was pending when its hour was rolled up (lib/domains/stats/rollup.ts). */
export interface PendingCall {
  id: string;
  startedAt: number;
}

const LIVE_COLUMNS = sql.sql`started_at, method, name, user_id, origin, status, duration_ms`;

/**
 * The calls of the scope read live, as one `live` CTE: outside the rollups' cover, or listed as
 * pending inside it. One statement per answer part, since each costs the same fixed overhead.
 */
function liveCalls(scope: StatsScope, cover: Cover | null, pending: PendingCall[]): Fragment {
  const servers = serversWhere(scope.workspaceId, scope.serverIds);
  const range = (from: Date, to: Date, inclusive: boolean) =>
    sql.sql`SELECT ${LIVE_COLUMNS} FROM ${calls} WHERE ${servers} AND started_at >= ${instant(from)} AND started_at ${sql.raw(inclusive ? "<=" : "<")} ${instant(to)}`;
  if (!cover) return sql.sql`WITH live AS (${range(scope.from, scope.to, true)})`;
  const [a, b] = [cover.fromMinute * 60_000, cover.toMinute * 60_000];
  const parts = [range(scope.from, new Date(a), false), range(new Date(b), scope.to, true)];
  const listed = pending.filter((p) => p.startedAt >= a && p.startedAt < b).map((p) => p.id);
  // By id: the call table's primary key, not the stats index.
  if (listed.length) parts.push(sql.sql`SELECT ${LIVE_COLUMNS} FROM "call" WHERE ${servers} AND id IN (${sql.join(listed)})`);
  return sql.sql`WITH live AS (${sql.join(parts, " UNION ALL ")})`;
}

/** The rollup rows of the scope's pieces (a WHERE clause per piece, joined by UNION ALL, so each is one range of the primary key). */
function rolledRows(scope: StatsScope, pieces: Cover[], kinds: Fragment, columns: Fragment): Fragment {
  const one = (c: Cover) => sql.sql`SELECT ${columns} FROM call_rollup
    WHERE workspace_id = ${scope.workspaceId} AND server_id = ${scope.serverId ?? ""} AND grain = ${c.grain} AND kind IN (${kinds})
      AND start_minute >= ${c.fromMinute} AND start_minute < ${c.toMinute}`;
  return sql.join(pieces.map(one), " UNION ALL ");
}

/** Summaries with duration histograms per bucket of `width` seconds (bucket start, seconds since the epoch); only buckets that hold calls. */
export async function seriesSummaries({ scope, width, through, pending }: { scope: StatsScope; width: number; through: number | null; pending: PendingCall[] }): Promise<Map<number, Summary>> {
  const { pieces, outer } = coversOf(scope, seriesGrains(width), through);
  const out = new Map<number, Summary>();
  const into = (start: number) => out.get(start) ?? out.set(start, emptySummary()).get(start)!;
  const bucket = bucketStart(width);
  const rolled = pieces.length
    ? await prisma.$queryRaw<(SummaryRow & { start_minute: Num; histogram: string })[]>`
        ${rolledRows(scope, pieces, sql.sql`'total'`, sql.sql`start_minute, ${rollupColumns}, histogram`)}`
    : [];
  const live = await prisma.$queryRaw<(SummaryRow & { b: Num; bin: Num })[]>`
    ${liveCalls(scope, outer, pending)}
    SELECT ${bucket} AS b, ${durationBin} AS bin, ${summaryColumns} FROM live GROUP BY ${bucket}, ${durationBin}`;
  for (const r of rolled) {
    const part = summaryOf(r);
    decodeBins(r.histogram, part.bins);
    mergeSummary(into(Math.floor((num(r.start_minute) * 60) / width) * width), part);
  }
  for (const r of live) {
    const part = summaryOf(r);
    if (r.bin !== null) part.bins.set(num(r.bin), part.timed);
    mergeSummary(into(num(r.b)), part);
  }
  return out;
}

const LIMITS = { tool: 10, user: 10, origin: 50, status: 20 } as const;
type GroupKind = keyof typeof LIMITS;

export interface GroupSummary {
  key: string;
  name: string;
  summary: Summary;
}

/** The largest groups of the range by number of calls, of each kind (ties by key, so the order is stable). */
export async function groupSummaries({ scope, through, pending }: { scope: StatsScope; through: number | null; pending: PendingCall[] }): Promise<Record<GroupKind, GroupSummary[]>> {
  const { pieces, outer } = coversOf(scope, [GRAINS.day, GRAINS.sixHours, GRAINS.hour], through);
  type Row = SummaryRow & { kind: GroupKind; key: string; name: string };
  const rolled = pieces.length
    ? await prisma.$queryRaw<Row[]>`
        SELECT kind, key, name, sum(count) AS count, sum(errors) AS errors, sum(timeouts) AS timeouts, sum(interrupted) AS interrupted, sum(timed) AS timed, ${real(sql.sql`sum(duration_sum)`)} AS total, ${real(sql.sql`min(duration_min)`)} AS least, ${real(sql.sql`max(duration_max)`)} AS greatest
        FROM (${rolledRows(scope, pieces, sql.sql`'tool', 'user', 'origin', 'status'`, sql.sql`kind, key, name, count, errors, timeouts, interrupted, timed, duration_sum, duration_min, duration_max`)}) AS rolled
        GROUP BY kind, key, name`
    : [];
  const live = await prisma.$queryRaw<Row[]>`
    ${liveCalls(scope, outer, pending)}
    SELECT 'tool' AS kind, method AS key, name, ${summaryColumns} FROM live GROUP BY method, name
    UNION ALL SELECT 'user' AS kind, coalesce(user_id, '') AS key, '' AS name, ${summaryColumns} FROM live GROUP BY coalesce(user_id, '')
    UNION ALL SELECT 'origin' AS kind, origin AS key, '' AS name, ${summaryColumns} FROM live GROUP BY origin
    UNION ALL SELECT 'status' AS kind, status AS key, '' AS name, ${summaryColumns} FROM live GROUP BY status`;
  const groups = { tool: new Map<string, GroupSummary>(), user: new Map<string, GroupSummary>(), origin: new Map<string, GroupSummary>(), status: new Map<string, GroupSummary>() };
  for (const r of [...rolled, ...live]) {
    const byKey = groups[r.kind];
    const id = `${r.key}\u0000${r.name}`;
    const group = byKey.get(id) ?? byKey.set(id, { key: r.key, name: r.name, summary: emptySummary() }).get(id)!;
    mergeSummary(group.summary, summaryOf(r));
  }
  const order = (a: GroupSummary, b: GroupSummary) =>
    b.summary.count - a.summary.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const top = (kind: GroupKind) => [...groups[kind].values()].sort(order).slice(0, LIMITS[kind]);
  return { tool: top("tool"), user: top("user"), origin: top("origin"), status: top("status") };
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
