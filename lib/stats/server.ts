import "server-only";
import type { Principal } from "@/lib/auth";
import { notFound } from "@/lib/errors";
import { BUCKETS, type Stats, type StatsPoint, type StatsQuery } from "./index";
import * as q from "./queries";

/**
 * The dashboard of a workspace, or of one of its servers (archived ones too), over a time range:
 * everything is computed by the database from the call table.
 */
export async function getStats(principal: Principal, query: StatsQuery): Promise<Stats> {
  const { workspaceId } = principal;
  const servers = await q.serverIds({ workspaceId });
  if (query.serverId && !servers.includes(query.serverId)) throw notFound("Server");
  const scope = { workspaceId, serverIds: query.serverId ? [query.serverId] : servers, from: query.from, to: query.to };
  const width = BUCKETS[query.bucket];
  const [totals, rows, tools, users, origins] = await Promise.all([
    q.totalRow({ scope }),
    q.seriesRows({ scope, width }),
    q.groupRows({ scope, by: "tool" }),
    q.groupRows({ scope, by: "user" }),
    q.groupRows({ scope, by: "origin" }),
  ]);
  const names = await q.userNames({ workspaceId, userIds: users.flatMap((u) => (u.user_id ? [u.user_id] : [])) });
  return {
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    bucket: query.bucket,
    serverId: query.serverId ?? null,
    totals,
    series: fillBuckets(rows, query.from, query.to, width),
    topTools: tools,
    byUser: users.map(({ user_id, ...g }) => ({ userId: user_id, userName: user_id ? (names.get(user_id) ?? null) : null, ...g })),
    byOrigin: origins,
  };
}

/** Every bucket from the one holding `from` to the one holding `to`, empty ones as zeros, so charts keep a true time axis. */
function fillBuckets(rows: q.SeriesRow[], from: Date, to: Date, width: number): StatsPoint[] {
  const byStart = new Map(rows.map((r) => [r.start, r]));
  const first = Math.floor(from.getTime() / 1000 / width) * width;
  const last = Math.floor(to.getTime() / 1000 / width) * width;
  const points: StatsPoint[] = [];
  for (let start = first; start <= last; start += width) {
    const row = byStart.get(start);
    points.push({ start: new Date(start * 1000).toISOString(), count: row?.count ?? 0, errors: row?.errors ?? 0, p50: row?.p50 ?? null, p95: row?.p95 ?? null });
  }
  return points;
}
