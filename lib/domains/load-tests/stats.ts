import type { LoadTestPoint } from "./index";

// Pure figures of a load test: no I/O, no clock of its own (tests/unit/load-test-stats.test.ts).

/** Bucket width: each bucket's upper bound is this much above its lower one (values within ±0.25 %). */
const RATIO = 1.005;
const LOG_RATIO = Math.log(RATIO);
/** Durations below this (ms) share the first bucket. */
const FLOOR_MS = 0.001;

/** The nearest-rank percentile `p` (0–100) of sorted values; null when there are none. */
export function percentileOfSorted(sorted: readonly number[], p: number): number | null {
  if (!sorted.length) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** The nearest-rank percentile of unsorted values. */
export function percentile(values: readonly number[], p: number): number | null {
  return percentileOfSorted([...values].sort((a, b) => a - b), p);
}

/**
 * Durations counted in log-spaced buckets: constant memory whatever the number of calls, and a
 * percentile within 0.25 % of the exact nearest-rank one (clamped to the exact min and max).
 */
export class Histogram {
  private readonly buckets = new Map<number, number>();
  count = 0;
  min = Infinity;
  max = -Infinity;

  add(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    const bucket = ms <= FLOOR_MS ? 0 : Math.max(0, Math.ceil(Math.log(ms / FLOOR_MS) / LOG_RATIO));
    this.buckets.set(bucket, (this.buckets.get(bucket) ?? 0) + 1);
    this.count++;
    if (ms < this.min) this.min = ms;
    if (ms > this.max) this.max = ms;
  }

  merge(other: Histogram): void {
    for (const [bucket, n] of other.buckets) this.buckets.set(bucket, (this.buckets.get(bucket) ?? 0) + n);
    this.count += other.count;
    this.min = Math.min(this.min, other.min);
    this.max = Math.max(this.max, other.max);
  }

  /** The nearest-rank percentile `p` (0–100), rounded to µs; null with no values. */
  quantile(p: number): number | null {
    if (!this.count) return null;
    const rank = Math.min(this.count, Math.max(1, Math.ceil((p / 100) * this.count)));
    if (rank === this.count) return round(this.max);
    if (rank === 1) return round(this.min);
    let seen = 0;
    for (const bucket of [...this.buckets.keys()].sort((a, b) => a - b)) {
      seen += this.buckets.get(bucket)!;
      if (seen >= rank) {
        // The bucket's geometric middle: within half a bucket of every value in it.
        const middle = bucket === 0 ? FLOOR_MS : FLOOR_MS * Math.pow(RATIO, bucket - 0.5);
        return round(Math.min(this.max, Math.max(this.min, middle)));
      }
    }
    return round(this.max);
  }
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/**
 * The per-second series for the chart: each call is counted in the second (since the test began)
 * it ended in; `close` turns the seconds before `upTo` into points and forgets their durations.
 */
export class Series {
  readonly points: LoadTestPoint[] = [];
  private readonly open = new Map<number, { calls: number; errors: number; durations: Histogram }>();
  private closedUpTo = 0;

  /** `durationMs` null: a call never sent (refused by a rule), counted but not timed. */
  record(elapsedMs: number, durationMs: number | null, failed: boolean): void {
    const second = Math.max(this.closedUpTo, Math.floor(elapsedMs / 1000));
    let bucket = this.open.get(second);
    if (!bucket) this.open.set(second, (bucket = { calls: 0, errors: 0, durations: new Histogram() }));
    bucket.calls++;
    if (failed) bucket.errors++;
    if (durationMs !== null) bucket.durations.add(durationMs);
  }

  /** Closes every second before `upTo` (empty ones too, so the chart's time axis has no holes). */
  close(upTo: number, users: number): void {
    for (let t = this.closedUpTo; t < upTo; t++) {
      const bucket = this.open.get(t);
      this.open.delete(t);
      this.points.push({ t, calls: bucket?.calls ?? 0, errors: bucket?.errors ?? 0, p50: bucket?.durations.quantile(50) ?? null, p95: bucket?.durations.quantile(95) ?? null, users });
    }
    this.closedUpTo = Math.max(this.closedUpTo, upTo);
  }
}

/** Calls per second over `elapsedMs`, to 0.01; null before any time passed. */
export function rate(calls: number, elapsedMs: number): number | null {
  return elapsedMs > 0 ? Math.round((calls / (elapsedMs / 1000)) * 100) / 100 : null;
}
