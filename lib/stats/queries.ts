import { prisma, sql } from "@/lib/db/client";
import { decodeBins, emptySummary, mergeSummary, type Summary } from "./histogram";
import { bucketStart, calls, durationBin, instant, num, real, serversWhere, summaryColumns, summaryOf, type Fragment, type Num, type SummaryRow } from "./sql";

export interface StatsScope {
  workspaceId: string;
  /** The servers whose calls count: one, or all of the workspace's (archived ones too). */
  serverIds: string[];
  /** The one server asked for, or null for the whole workspace (its rollup rows have server ""). */
  serverId: string | null;
  from: Date;
  to: Date;
}

/**
 * Which calls of a range come from rollup rows: the periods of `grain` minutes wholly inside the
 * range and rolled up, [fromMinute, toMinute). The others are read from the call table: the range's
 * ragged ends, hours not rolled up yet (the current one), and calls that were pending when their
 * hour was rolled up.
 */
export interface Cover {
  grain: number;
  fromMinute: number;
  toMinute: number;
}

/** The covered periods of `grain` minutes, or null when none is. The range includes its end. */
export function coverOf(scope: StatsScope, grain: number | null, through: number | null): Cover | null {
  if (grain === null || through === null) return null;
  const ms = grain * 60_000;
  const fromMinute = Math.ceil(scope.from.getTime() / ms) * grain;
  const toMinute = Math.min(through, Math.floor((scope.to.getTime() + 1) / ms) * grain);
  return fromMinute < toMinute ? { grain, fromMinute, toMinute } : null;
}

/** The calls of the scope read live (FROM … WHERE …): outside the cover, or listed as pending inside it. */
async function liveSources(scope: StatsScope, cover: Cover | null): Promise<Fragment[]> {
  const servers = sql.sql`${calls} WHERE ${serversWhere(scope.workspaceId, scope.serverIds)}`;
  if (!cover) return [sql.sql`${servers} AND started_at >= ${instant(scope.from)} AND started_at <= ${instant(scope.to)}`];
  const [a, b] = [new Date(cover.fromMinute * 60_000), new Date(cover.toMinute * 60_000)];
  const pending = await prisma.$queryRaw<{ call_id: string }[]>`
    SELECT call_id FROM call_rollup_pending WHERE workspace_id = ${scope.workspaceId} AND started_at >= ${instant(a)} AND started_at < ${instant(b)}`;
  const parts = [
    sql.sql`${servers} AND started_at >= ${instant(scope.from)} AND started_at < ${instant(a)}`,
    sql.sql`${servers} AND started_at >= ${instant(b)} AND started_at <= ${instant(scope.to)}`,
  ];
  // By id: the call table's primary key, not the stats index.
  if (pending.length) parts.push(sql.sql`"call" WHERE ${serversWhere(scope.workspaceId, scope.serverIds)} AND id IN (${sql.join(pending.map((p) => p.call_id))})`);
  return parts;
}

const rollupScope = (scope: StatsScope, cover: Cover, kind: string) =>
  sql.sql`workspace_id = ${scope.workspaceId} AND server_id = ${scope.serverId ?? ""} AND grain = ${cover.grain} AND kind = ${kind} AND start_minute >= ${cover.fromMinute} AND start_minute < ${cover.toMinute}`;

/** Summaries with duration histograms per bucket of `width` seconds (bucket start, seconds since the epoch); only buckets that hold calls. */
export async function seriesSummaries({ scope, width, through }: { scope: StatsScope; width: number; through: number | null }): Promise<Map<number, Summary>> {
  const grain = width % 3600 === 0 ? 60 : width % 900 === 0 ? 15 : null;
  const cover = coverOf(scope, grain, through);
  const out = new Map<number, Summary>();
  const into = (start: number) => out.get(start) ?? out.set(start, emptySummary()).get(start)!;
  const bucket = bucketStart(width);
  const live = (where: Fragment) =>
    prisma.$queryRaw<(SummaryRow & { b: Num; bin: Num })[]>`
      SELECT ${bucket} AS b, ${durationBin} AS bin, ${summaryColumns} FROM ${where} GROUP BY ${bucket}, ${durationBin}`;
  const [rolled, ...lives] = await Promise.all([
    cover
      ? prisma.$queryRaw<(SummaryRow & { start_minute: Num; histogram: string })[]>`
          SELECT start_minute, count, errors, timed, duration_sum AS total, duration_min AS least, duration_max AS greatest, histogram
          FROM call_rollup WHERE ${rollupScope(scope, cover, "total")}`
      : [],
    ...(await liveSources(scope, cover)).map(live),
  ]);
  for (const r of rolled) {
    const part = summaryOf(r);
    decodeBins(r.histogram, part.bins);
    mergeSummary(into(Math.floor((num(r.start_minute) * 60) / width) * width), part);
  }
  for (const r of lives.flat()) {
    const part = summaryOf(r);
    if (r.bin !== null) part.bins.set(num(r.bin), part.timed);
    mergeSummary(into(num(r.b)), part);
  }
  return out;
}

const GROUPS = {
  tool: { kind: "tool", columns: sql.sql`method AS key, name`, groupBy: sql.sql`method, name`, limit: 10 },
  user: { kind: "user", columns: sql.sql`coalesce(user_id, '') AS key, '' AS name`, groupBy: sql.sql`coalesce(user_id, '')`, limit: 10 },
  origin: { kind: "origin", columns: sql.sql`origin AS key, '' AS name`, groupBy: sql.sql`origin`, limit: 50 },
} as const;

export interface GroupSummary {
  key: string;
  name: string;
  summary: Summary;
}

/** The largest groups of the range by number of calls (ties by key, so the order is stable). */
export async function groupSummaries({ scope, by, through }: { scope: StatsScope; by: keyof typeof GROUPS; through: number | null }): Promise<GroupSummary[]> {
  const { kind, columns, groupBy, limit } = GROUPS[by];
  const cover = coverOf(scope, 60, through);
  type Row = SummaryRow & { key: string; name: string };
  const [rolled, ...lives] = await Promise.all([
    cover
      ? prisma.$queryRaw<Row[]>`
          SELECT key, name, sum(count) AS count, sum(errors) AS errors, sum(timed) AS timed, ${real(sql.sql`sum(duration_sum)`)} AS total, ${real(sql.sql`min(duration_min)`)} AS least, ${real(sql.sql`max(duration_max)`)} AS greatest
          FROM call_rollup WHERE ${rollupScope(scope, cover, kind)} GROUP BY key, name`
      : [],
    ...(await liveSources(scope, cover)).map(
      (where) => prisma.$queryRaw<Row[]>`SELECT ${columns}, ${summaryColumns} FROM ${where} GROUP BY ${groupBy}`,
    ),
  ]);
  const groups = new Map<string, GroupSummary>();
  for (const r of [...rolled, ...lives.flat()]) {
    const id = `${r.key}\u0000${r.name}`;
    const group = groups.get(id) ?? groups.set(id, { key: r.key, name: r.name, summary: emptySummary() }).get(id)!;
    mergeSummary(group.summary, summaryOf(r));
  }
  const order = (a: GroupSummary, b: GroupSummary) =>
    b.summary.count - a.summary.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return [...groups.values()].sort(order).slice(0, limit);
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
