import "server-only";
import { isDatabaseOutage, retryOnOutage } from "@/lib/core/db/client";
import { heartbeatMs } from "@/lib/core/instances";
import * as q from "./queries";

/**
 * How long a run stays `running` without its instance renewing it: six heartbeats (30 s by
 * default). The instance renews it every heartbeat while the run goes on.
 */
export function runLeaseMs(): number {
  return 6 * heartbeatMs();
}

/** A step the console's own database failed: the run is interrupted, it says nothing about the server. */
export const DATABASE_INTERRUPTED = "The console's database failed";
const LEASE_INTERRUPTED = "The console instance running this step stopped renewing its lease (its database writes failed, or it stopped)";

/** The step error of a database outage, or null when `err` is something else. */
export function databaseInterruption(err: unknown): string | null {
  return isDatabaseOutage(err) ? `${DATABASE_INTERRUPTED}: ${err instanceof Error ? err.message : String(err)}` : null;
}

/**
 * One of the runner's own writes: tried again through a database outage, with back-off, for up to
 * one lease; then given up (the run is reaped as `interrupted` once its lease runs out).
 */
export function durably<T>(attempt: () => Promise<T>): Promise<T> {
  return retryOnOutage({ attempt, deadlineMs: runLeaseMs() });
}

/**
 * Renews a run's lease every heartbeat until released; `lost()` once the run was ended elsewhere
 * (reaped). `renew` is another kind of run's renewal (a replay's), a collection run's by default.
 */
export function holdLease({ runId, renew = q.renewLease }: { runId: string; renew?: (lease: { id: string; ms: number }) => Promise<number> }): { lost(): boolean; release(): void } {
  let lost = false;
  let renewing = false;
  const timer = setInterval(() => {
    if (renewing) return;
    renewing = true;
    renew({ id: runId, ms: runLeaseMs() })
      .then((count) => (lost ||= count === 0))
      // A failed renewal is retried at the next beat; the lease runs out if none lands.
      .catch(() => undefined)
      .finally(() => (renewing = false));
  }, heartbeatMs());
  timer.unref();
  return { lost: () => lost, release: () => clearInterval(timer) };
}

/** Ends as `interrupted` the running runs whose lease ran out (of one monitor, or all); how many. */
export async function reapExpiredRuns({ monitorId }: { monitorId?: string } = {}): Promise<number> {
  return q.interruptRuns({ ids: await q.expiredRuns({ monitorId }), reason: LEASE_INTERRUPTED });
}

/** Ends one run as `interrupted` now (its runner gave up on it), through an outage if it can. */
export function interruptRun({ runId, reason }: { runId: string; reason: string }): Promise<number> {
  return durably(() => q.interruptRuns({ ids: [runId], reason }));
}
