import "server-only";
import { roleAtLeast, type Principal, type Role } from "@/lib/access";
import { startRun } from "@/lib/collections/server";
import { isUniqueViolation } from "@/lib/db/client";
import { publish } from "@/lib/events/server";
import { heartbeatMs, instanceId } from "@/lib/instances";
import { afterRun } from "./incidents";
import type { MonitorSchedule } from "./index";
import * as q from "./queries";
import { nextDue } from "./schedule";

const BATCH = 100;
const TICKS_KEPT_MS = 7 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;

function pollMs(): number {
  const configured = Number(process.env.SWITCHBOARD_MONITOR_POLL_MS);
  return Number.isFinite(configured) && configured > 0 ? configured : 1000;
}

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

interface Scheduler {
  /** Nothing new is claimed, and runs still going no longer open or close incidents. */
  stop(): Promise<void>;
}

/**
 * Polls for due monitors every SWITCHBOARD_MONITOR_POLL_MS. Each due tick is claimed by a
 * compare-and-set of the monitor's `nextRunAt` (one instance wins) and recorded as a MonitorTick
 * whose unique (monitor, dueAt) is a second guard; the winner runs it, or records why it skipped.
 */
export function startMonitorScheduler({ log = console.log }: { log?: (line: string) => void } = {}): Scheduler {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let polling: Promise<void> = Promise.resolve();

  const runTick = async (monitor: q.DueMonitor) => {
    const due = monitor.nextRunAt!;
    const schedule = JSON.parse(monitor.schedule) as MonitorSchedule;
    if (!(await q.claimTick({ id: monitor.id, due, next: nextDue(schedule, due) }))) return;
    const record = (outcome: "ran" | "skipped", reason: string | null) =>
      q.insertTick({ data: { monitorId: monitor.id, workspaceId: monitor.workspaceId, dueAt: due, instanceId: instanceId(), outcome, reason, runId: null } });
    const announce = () => publish(monitor.workspaceId, { type: "monitor", monitorId: monitor.id });
    try {
      const who = await creatorPrincipal(monitor);
      const running = "reason" in who ? [] : await q.runningRuns({ monitorId: monitor.id, since: new Date(Date.now() - 3 * heartbeatMs()) });
      const reason = "reason" in who ? who.reason : running.length ? "the previous run was still running" : null;
      if (reason || !("principal" in who)) {
        await record("skipped", reason);
        return announce();
      }
      const tick = await record("ran", null);
      try {
        const { run, finished } = await startRun({ principal: who.principal, collectionId: monitor.collectionId, environment: monitor.environment ?? undefined, origin: "monitor", monitorId: monitor.id });
        await q.updateTick({ id: tick.id, data: { runId: run.id } });
        void finished.then((done) => (stopped ? undefined : afterRun({ workspaceId: monitor.workspaceId, monitorId: monitor.id, run: done }))).catch((err: unknown) => log(`[monitors] after run of ${monitor.id}: ${String(err)}`));
      } catch (err) {
        await q.updateTick({ id: tick.id, data: { outcome: "skipped", reason: `the run could not start: ${err instanceof Error ? err.message : String(err)}` } });
      }
      announce();
    } catch (err) {
      // Another instance recorded this due time (the unique key): it is theirs.
      if (!isUniqueViolation(err)) log(`[monitors] tick of ${monitor.id} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  let prunedAt = 0;
  const poll = async () => {
    try {
      if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
        prunedAt = Date.now();
        await q.pruneTicks({ before: new Date(prunedAt - TICKS_KEPT_MS) });
      }
      const due = await q.dueMonitors({ now: new Date(), limit: BATCH });
      await Promise.all(due.map(runTick));
    } catch (err) {
      log(`[monitors] poll failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      polling = poll().finally(schedule);
    }, pollMs());
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await polling;
    },
  };
}
