import { toIncidentDto } from "./dto";
import type { UptimeDto } from "./index";
import * as q from "./queries";

const BUCKETS = 24;

/** Nearest-rank percentile of sorted durations. */
function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/** Success rate and p50/p95 of a monitor's finished runs over the last `hours`, in 24 buckets, with its incidents. */
export async function computeUptime({ monitorId, hours, now = new Date() }: { monitorId: string; hours: number; now?: Date }): Promise<UptimeDto> {
  const since = new Date(now.getTime() - hours * 3_600_000);
  const [runs, incidents] = await Promise.all([q.finishedRuns({ monitorId, since }), q.listIncidents({ monitorId, since, limit: 500 })]);
  const width = (hours * 3_600_000) / BUCKETS;
  const buckets = Array.from({ length: BUCKETS }, (_, i) => ({ start: new Date(since.getTime() + i * width), durations: [] as number[], passed: 0 }));
  const all: number[] = [];
  let passed = 0;
  for (const run of runs) {
    const duration = run.finishedAt!.getTime() - run.startedAt.getTime();
    const bucket = buckets[Math.min(BUCKETS - 1, Math.floor((run.startedAt.getTime() - since.getTime()) / width))]!;
    bucket.durations.push(duration);
    all.push(duration);
    if (run.status === "passed") {
      passed++;
      bucket.passed++;
    }
  }
  const sort = (values: number[]) => values.sort((a, b) => a - b);
  sort(all);
  return {
    hours,
    runs: runs.length,
    passed,
    successRate: runs.length ? passed / runs.length : null,
    p50Ms: percentile(all, 0.5),
    p95Ms: percentile(all, 0.95),
    buckets: buckets.map((b) => {
      const sorted = sort(b.durations);
      return { start: b.start.toISOString(), runs: sorted.length, passed: b.passed, p50Ms: percentile(sorted, 0.5), p95Ms: percentile(sorted, 0.95) };
    }),
    incidents: incidents.map(toIncidentDto),
  };
}
