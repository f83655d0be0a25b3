import "server-only";
import type { Principal } from "@/lib/core/access";
import { notFound } from "@/lib/core/errors";
import { estimatePercentile, emptySummary, mergeSummary, type Summary } from "./histogram";
import { BUCKETS, type Failures, type Stats, type StatsGroup, type StatsPoint, type StatsQuery } from "./index";
import * as q from "./queries";
import { advanceRollups, forgetRollups } from "./rollup";

/**
 * The dashboard of a workspace, or of one of its servers (archived ones too), over a time range,
 * computed by the database: closed hours from their rollups (brought up to date first), the rest
 * of the range from the call table. Percentiles are estimated from duration histograms.
 */
export async function getStats(principal: Principal, query: StatsQuery): Promise<Stats> {
  const { workspaceId } = principal;
  // Without up-to-date rollups the answer is still right, computed from the call table.
  const [servers, { through, pending }] = await Promise.all([
    q.serverIds({ workspaceId }),
    advanceRollups({ workspaceId }).catch((err: unknown) => {
      console.error("[stats] rolling up failed", err);
      return { through: null, pending: [] };
    }),
  ]);
  if (query.serverId && !servers.includes(query.serverId)) throw notFound("Server");
  const scope = { workspaceId, serverIds: query.serverId ? [query.serverId] : servers, serverId: query.serverId ?? null, from: query.from, to: query.to };
  const width = BUCKETS[query.bucket];
  const [series, { tool: tools, user: users, origin: origins, status: statuses }] = await Promise.all([
    q.seriesSummaries({ scope, width, through, pending }),
    q.groupSummaries({ scope, through, pending }),
  ]);
  const total = [...series.values()].reduce(mergeSummary, emptySummary());
  const names = await q.userNames({ workspaceId, userIds: users.flatMap((u) => (u.key ? [u.key] : [])) });
  return {
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    bucket: query.bucket,
    serverId: query.serverId ?? null,
    totals: { ...group(total), ...percentiles(total), denied: statuses.find((s) => s.key === "denied")?.summary.count ?? 0 },
    series: fillBuckets(series, query.from, query.to, width),
    topTools: tools.map((t) => ({ method: t.key, name: t.name, ...group(t.summary) })),
    byUser: users.map((u) => ({ userId: u.key || null, userName: u.key ? (names.get(u.key) ?? null) : null, ...group(u.summary) })),
    byOrigin: origins.map((o) => ({ origin: o.key, ...group(o.summary) })),
  };
}

/** After a server's calls were purged: the workspace's dashboard sums are rebuilt from what remains. */
export async function forgetServerStats({ workspaceId }: { workspaceId: string }): Promise<void> {
  await forgetRollups({ workspaceId });
}

function failures(s: Summary): Failures {
  return { errors: s.errors, timeouts: s.timeouts, interrupted: s.interrupted, failures: s.errors + s.timeouts + s.interrupted };
}

function group(s: Summary): StatsGroup {
  return { count: s.count, ...failures(s), meanMs: s.timed ? s.sum / s.timed : null };
}

function percentiles(s: Summary): { p50: number | null; p95: number | null } {
  return { p50: estimatePercentile(s, 0.5), p95: estimatePercentile(s, 0.95) };
}

/** Every bucket from the one holding `from` to the one holding `to`, empty ones as zeros, so charts keep a true time axis. */
function fillBuckets(series: Map<number, Summary>, from: Date, to: Date, width: number): StatsPoint[] {
  const first = Math.floor(from.getTime() / 1000 / width) * width;
  const last = Math.floor(to.getTime() / 1000 / width) * width;
  const points: StatsPoint[] = [];
  for (let start = first; start <= last; start += width) {
    const s = series.get(start) ?? emptySummary();
    points.push({ start: new Date(start * 1000).toISOString(), count: s.count, ...failures(s), ...percentiles(s) });
  }
  return points;
}
