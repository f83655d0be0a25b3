import "server-only";
import { roleAtLeast, type Principal, type Role } from "@/lib/core/access";
import { reapExpiredRuns, startClaimedRun } from "@/lib/domains/collections/server";
import { isDatabaseOutage, isUniqueViolation, retryOnOutage } from "@/lib/core/db/client";
import { publish } from "@/lib/core/events/server";
import { monitorRunFinished } from "@/lib/core/metrics";
import { heartbeatMs, instanceId } from "@/lib/core/instances";
import { afterRun } from "./incidents";
import type { MonitorSchedule } from "./index";
import * as q from "./queries";
import { nextDue } from "./schedule";

const BATCH = 100;
const TICKS_KEPT_MS = 7 * 24 * 3_600_000;
/** How long a finished run's incident and alert writes are retried through a database outage. */
const AFTER_RUN_RETRY_MS = 5 * 60_000;

/** The monitor's creator as they are now in the workspace: it runs as them, or not at all. */
async function creatorPrincipal(monitor: q.DueMonitor): Promise<{ principal: Principal } | { reason: string }> {
  const member = await q.findMemberRole({ workspaceId: monitor.workspaceId, userId: monitor.createdById });
  if (!member) return { reason: `its creator (${monitor.createdByName}) is no longer a member of the workspace` };
  if (!roleAtLeast(member.role, "member")) return { reason: `its creator (${monitor.createdByName}) is a ${member.role} now and cannot run collections` };
  const role = member.role as Role;
  return {
    principal: {
      userId: monitor.createdById,
      userName: member.user.name || monitor.createdByName,
      workspaceId: monitor.workspaceId,
      role,
      memberRole: role,
      via: "session",
      client: { ip: null, userAgent: "switchboard-monitor" },
    },
  };
}

/** The monitors' part of the scheduler's jobs (lib/start/jobs.ts). */
export interface MonitorWork {
  /** `monitors.poll` (every instance): claims and starts each due tick. */
  poll(): Promise<void>;
  /** `monitors.prune` (once across instances): ticks older than a week go. */
  prune(): Promise<string | void>;
  /** Nothing new is claimed, and runs still going no longer open or close incidents. */
  stop(): void;
}

/**
 * Each due tick is claimed by a compare-and-set of the monitor's `nextRunAt` (one instance wins)
 * and recorded as a MonitorTick whose unique (monitor, dueAt) is a second guard, in the
 * transaction that inserts its run (or records why it skipped): a tick never stands without its
 * run, and a failed write leaves it due.
 */
export function monitorWork({ log = console.log }: { log?: (line: string) => void } = {}): MonitorWork {
  let stopped = false;

  const runTick = async (monitor: q.DueMonitor) => {
    const due = monitor.nextRunAt!;
    const claim = { monitorId: monitor.id, workspaceId: monitor.workspaceId, due, next: nextDue(JSON.parse(monitor.schedule) as MonitorSchedule, due), instanceId: instanceId() };
    const announce = () => publish(monitor.workspaceId, { type: "monitor", monitorId: monitor.id });
    const skip = async (reason: string) => {
      if (await q.claimSkippedTick({ claim: { ...claim, reason } })) announce();
    };
    try {
      const who = await creatorPrincipal(monitor);
      if ("reason" in who) return await skip(who.reason);
      // A run whose lease ran out is no one's any more: it ends `interrupted` and does not hold the tick back.
      await reapExpiredRuns({ monitorId: monitor.id });
      if ((await q.runningRuns({ monitorId: monitor.id, since: new Date(Date.now() - 3 * heartbeatMs()) })).length) return await skip("the previous run was still running");
      let started;
      try {
        started = await startClaimedRun({
          principal: who.principal,
          collectionId: monitor.collectionId,
          environment: monitor.environment ?? undefined,
          origin: "monitor",
          monitorId: monitor.id,
          claim: (tx, runId) => q.claimTick({ tx, claim: { ...claim, outcome: "ran", reason: null, runId } }),
        });
      } catch (err) {
        // The database failed: nothing was claimed, the due time stays due for the next poll.
        if (isDatabaseOutage(err) || isUniqueViolation(err)) throw err;
        return await skip(`the run could not start: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (!started) return;
      announce();
      void started.finished
        .then((done) => {
          monitorRunFinished(done.status);
          return stopped ? undefined : retryOnOutage({ attempt: () => afterRun({ workspaceId: monitor.workspaceId, monitorId: monitor.id, run: done }), deadlineMs: AFTER_RUN_RETRY_MS });
        })
        .catch((err: unknown) => log(`[monitors] after run of ${monitor.id}: ${String(err)}`));
    } catch (err) {
      // Another instance recorded this due time (the unique key): it is theirs.
      if (!isUniqueViolation(err)) log(`[monitors] tick of ${monitor.id} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  return {
    async poll() {
      if (stopped) return;
      const due = await q.dueMonitors({ now: new Date(), limit: BATCH });
      await Promise.all(due.map(runTick));
    },
    async prune() {
      const { count: pruned } = await q.pruneTicks({ before: new Date(Date.now() - TICKS_KEPT_MS) });
      if (pruned) return `${pruned} tick(s) older than a week deleted`;
    },
    stop() {
      stopped = true;
    },
  };
}
