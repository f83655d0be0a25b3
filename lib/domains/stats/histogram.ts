// Isomorphic: the dashboard's mergeable summaries of calls and the percentiles estimated from them.

/** Bins per doubling of the duration: a bin's upper edge is 2^(1/8) ≈ 1.09 times its lower one. */
export const BINS_PER_DOUBLING = 8;
/** Bin 1 starts at 2^-10 ms (about a microsecond); bin 0 holds durations of exactly 0. */
export const FIRST_BIN_OFFSET = 81;
/** The last bin starts at 2^29.875 ms (about 10 days) and holds every longer duration. */
export const LAST_BIN = 320;
/**
 * Largest relative error of an estimated percentile for durations from 2^-10 ms to 10 days: each
 * ranked value is taken as its bin's geometric middle, at most 2^(1/16) − 1 ≈ 4.4 % from any value
 * in the bin, and interpolating between two such estimates keeps the bound.
 */
export const PERCENTILE_RELATIVE_ERROR = 2 ** (1 / 16) - 1;

/** The bin of a duration in ms (the SQL in lib/domains/stats/sql.ts computes the same). */
export function binOf(durationMs: number): number {
  if (durationMs <= 0) return 0;
  return Math.max(1, Math.min(LAST_BIN, Math.floor(Math.log2(durationMs) * BINS_PER_DOUBLING) + FIRST_BIN_OFFSET));
}

/** A bin's geometric middle. */
function middleOf(bin: number): number {
  return bin === 0 ? 0 : 2 ** ((bin - FIRST_BIN_OFFSET + 0.5) / BINS_PER_DOUBLING);
}

/** Sums over a set of calls that add up exactly when sets are merged. */
export interface Summary {
  count: number;
  /** Calls with status `error`, `timeout` and `interrupted`. */
  errors: number;
  timeouts: number;
  interrupted: number;
  /** Calls that got an answer (status ok or error) with a duration: how many, their total, least and greatest. */
  timed: number;
  sum: number;
  min: number | null;
  max: number | null;
  /** Calls per duration bin. */
  bins: Map<number, number>;
}

export function emptySummary(): Summary {
  return { count: 0, errors: 0, timeouts: 0, interrupted: 0, timed: 0, sum: 0, min: null, max: null, bins: new Map() };
}

/** Adds `from` into `into`. */
export function mergeSummary(into: Summary, from: Summary): Summary {
  into.count += from.count;
  into.errors += from.errors;
  into.timeouts += from.timeouts;
  into.interrupted += from.interrupted;
  into.timed += from.timed;
  into.sum += from.sum;
  if (from.min !== null) into.min = into.min === null ? from.min : Math.min(into.min, from.min);
  if (from.max !== null) into.max = into.max === null ? from.max : Math.max(into.max, from.max);
  for (const [bin, n] of from.bins) into.bins.set(bin, (into.bins.get(bin) ?? 0) + n);
  return into;
}

/** "bin:count" pairs, as stored in call_rollup.histogram. */
export function encodeBins(bins: Map<number, number>): string {
  return [...bins].sort((a, b) => a[0] - b[0]).map(([bin, n]) => `${bin}:${n}`).join(",");
}

export function decodeBins(text: string, into = new Map<number, number>()): Map<number, number> {
  if (!text) return into;
  for (const pair of text.split(",")) {
    const colon = pair.indexOf(":");
    const bin = Number(pair.slice(0, colon));
    into.set(bin, (into.get(bin) ?? 0) + Number(pair.slice(colon + 1)));
  }
  return into;
}

/**
 * The `p` percentile of the summarised durations with PostgreSQL's `percentile_cont` rule
 * (interpolating between the values ranked around p·(n−1)), each ranked value estimated from its
 * bin (the least and greatest exactly): within PERCENTILE_RELATIVE_ERROR of the exact answer.
 */
export function estimatePercentile(s: Summary, p: number): number | null {
  const n = [...s.bins.values()].reduce((a, b) => a + b, 0);
  if (n === 0 || s.min === null || s.max === null) return null;
  const sorted = [...s.bins].sort((a, b) => a[0] - b[0]);
  const { min, max } = s;
  const valueAt = (rank: number): number => {
    if (rank <= 0) return min;
    if (rank >= n - 1) return max;
    let seen = 0;
    for (const [bin, count] of sorted) {
      seen += count;
      if (rank < seen) return Math.min(max, Math.max(min, middleOf(bin)));
    }
    return max;
  };
  const pos = p * (n - 1);
  const lo = Math.floor(pos);
  const f = pos - lo;
  const low = valueAt(lo);
  return f === 0 ? low : low + f * (valueAt(lo + 1) - low);
}
