export type { StatsQuery } from "./schemas";

/** Bucket widths of the time series, in seconds; buckets start at multiples of their width (UTC). */
export const BUCKETS = { "1m": 60, "5m": 300, "15m": 900, "1h": 3600, "3h": 10_800, "6h": 21_600, "1d": 86_400 } as const;
export type Bucket = keyof typeof BUCKETS;

export const MAX_RANGE_DAYS = 366;
export const MAX_BUCKETS = 1000;
// A derived bucket is the narrowest that keeps the chart at this many points or fewer.
const TARGET_BUCKETS = 120;

/** The narrowest bucket that draws `rangeMs` in at most 120 points (a day at most). */
export function bucketFor(rangeMs: number): Bucket {
  const names = Object.keys(BUCKETS) as Bucket[];
  return names.find((b) => rangeMs / (BUCKETS[b] * 1000) <= TARGET_BUCKETS) ?? "1d";
}

/** How many calls failed, and how. */
export interface Failures {
  /** Calls that ended with status `error` (a JSON-RPC error, `isError: true`, no connection). */
  errors: number;
  /** Calls that got no answer in time (status `timeout`). */
  timeouts: number;
  /** Calls whose console instance stopped before the answer (status `interrupted`). */
  interrupted: number;
  /** errors + timeouts + interrupted: what the dashboard's failure rate counts. */
  failures: number;
}

/**
 * One bucket of the series. Percentiles are over the durations of calls that got an answer
 * (status ok or error; null when none did), estimated from a duration histogram within 4.4 %
 * (lib/domains/stats/histogram.ts): a timeout's duration is its limit, not the server's time.
 */
export interface StatsPoint extends Failures {
  /** Start of the bucket (ISO); the bucket holds [start, start + width). */
  start: string;
  count: number;
  p50: number | null;
  p95: number | null;
}

/** A group of calls (a tool, a user, an origin) in the range. */
export interface StatsGroup extends Failures {
  count: number;
  /** Mean duration of the calls that got an answer (status ok or error), ms. */
  meanMs: number | null;
}

interface StatsTotals extends StatsGroup {
  p50: number | null;
  p95: number | null;
  /** Calls the workspace's rules refused (status `denied`, docs/governance.md): counted in `count`, not in `failures`. */
  denied: number;
}

export interface Stats {
  from: string;
  to: string;
  bucket: Bucket;
  serverId: string | null;
  totals: StatsTotals;
  series: StatsPoint[];
  /** The 10 most called names (tools, resource URIs, prompts) with their method. */
  topTools: (StatsGroup & { name: string; method: string })[];
  /** Up to 10 users with most calls; `userId` null for calls without a user. */
  byUser: (StatsGroup & { userId: string | null; userName: string | null })[];
  byOrigin: (StatsGroup & { origin: string })[];
}

/** What the dashboard asks for: a range relative to now, or a fixed one. */
export interface StatsFilters {
  serverId?: string;
  from?: string;
  to?: string;
  bucket?: Bucket;
}

export const statsKeys = {
  all: ["stats"] as const,
  query: (filters: StatsFilters) => ["stats", filters] as const,
};

/** The history page filtered like a chart: same server and time range plus what the chart adds. */
export function historyHref(filters: { serverId?: string | null; from: string; to: string; method?: string; name?: string; status?: string; userId?: string; origin?: string }): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  // The dashboard counts every origin; history leaves automatic work out unless told otherwise.
  if (!filters.origin) params.set("origin", "any");
  return `/history?${params}`;
}
