import type { RetentionOutcome } from "./index";
import * as q from "./queries";
import { piece } from "@/lib/runtime";

// Started by server.ts, outside Next's bundles: nothing here may import "server-only".

/** How often the purge runs (SWITCHBOARD_RETENTION_INTERVAL_MS overrides; 0 turns it off). */
const INTERVAL_MS = Number(process.env.SWITCHBOARD_RETENTION_INTERVAL_MS ?? 3_600_000);
/** Rows per delete statement. */
const BATCH = 5000;
/** Sessions handled per round of log, traffic and session deletes. */
const SESSION_BATCH = 200;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The audit writer (lib/audit's insertAuditEvents), handed in by server.ts. */
type RecordAudit = (input: {
  rows: {
    workspaceId: string;
    actorType: "system";
    actorId: null;
    actorName: string;
    action: string;
    targetType: string;
    targetId: string;
    targetName: null;
    details: string;
    ip: null;
    userAgent: null;
  }[];
}) => Promise<unknown>;

/** What else must forget the purged calls (lib/stats' rollups), handed in by server.ts. */
type OnCallsPurged = (input: { workspaceId: string; before: Date }) => Promise<unknown>;

interface RetentionScheduler {
  timer: NodeJS.Timeout | null;
  running: Promise<RetentionRun[]> | null;
  recordAudit: RecordAudit | null;
  onCallsPurged: OnCallsPurged | null;
}

type RetentionRun = RetentionOutcome & { workspaceId: string };

const scheduler = () => piece("retention", (): RetentionScheduler => ({ timer: null, running: null, recordAudit: null, onCallsPurged: null }));

/**
 * Starts (once per process) the retention purge: one run now, then one every interval. Runs
 * never overlap (a tick while one is running is skipped), and the timer does not keep the process alive.
 */
export function startRetention({ recordAudit, onCallsPurged }: { recordAudit: RecordAudit; onCallsPurged?: OnCallsPurged }): void {
  const state = scheduler();
  state.recordAudit = recordAudit;
  state.onCallsPurged = onCallsPurged ?? null;
  if (state.timer || !(INTERVAL_MS > 0)) return;
  void runRetention();
  state.timer = setInterval(() => void runRetention(), INTERVAL_MS);
  state.timer.unref();
}

export function stopRetention(): void {
  const state = scheduler();
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
}

/** One purge over every workspace with a retention period; joins the run in progress if there is one. */
function runRetention(now = new Date()): Promise<RetentionRun[]> {
  const state = scheduler();
  state.running ??= purgeAll(now)
    .catch((err: unknown) => {
      console.error("[retention] purge failed", err);
      return [];
    })
    .finally(() => (state.running = null));
  return state.running;
}

async function purgeAll(now: Date): Promise<RetentionRun[]> {
  const runs: RetentionRun[] = [];
  for (const workspace of await q.listWorkspacesWithRetention()) {
    const days = workspace.retentionDays!;
    const outcome = await purgeWorkspace(workspace.id, days, new Date(now.getTime() - days * DAY_MS));
    if (outcome.calls + outcome.sessions + outcome.logs + outcome.traffic + outcome.runs + outcome.alerts === 0) continue;
    runs.push({ workspaceId: workspace.id, ...outcome });
    console.log(`[retention] workspace ${workspace.id}: purged ${outcome.calls} call(s) and ${outcome.sessions} session(s) older than ${days} day(s)`);
    await scheduler().recordAudit?.({
      rows: [
        {
          workspaceId: workspace.id,
          actorType: "system",
          actorId: null,
          actorName: "retention",
          action: "retention.purged",
          targetType: "workspace",
          targetId: workspace.id,
          targetName: null,
          details: JSON.stringify(outcome),
          ip: null,
          userAgent: null,
        },
      ],
    });
  }
  return runs;
}

async function purgeWorkspace(workspaceId: string, retentionDays: number, cutoff: Date): Promise<RetentionOutcome> {
  const outcome: RetentionOutcome = { retentionDays, cutoff: cutoff.toISOString(), calls: 0, sessions: 0, logs: 0, traffic: 0, runs: 0, alerts: 0 };
  outcome.calls = await drain(() => q.deleteOldCalls({ workspaceId, cutoff, limit: BATCH }));
  if (outcome.calls) await scheduler().onCallsPurged?.({ workspaceId, before: cutoff });
  for (;;) {
    const ids = await q.findOldSessions({ workspaceId, cutoff, limit: SESSION_BATCH });
    if (!ids.length) break;
    outcome.traffic += await drain(() => q.deleteSessionTraffic({ sessionIds: ids, limit: BATCH }));
    outcome.logs += await drain(() => q.deleteSessionLogs({ sessionIds: ids, limit: BATCH }));
    const deleted = await q.deleteSessions({ ids });
    outcome.sessions += deleted;
    if (!deleted) break;
  }
  outcome.runs = await drain(() => q.deleteOldRuns({ workspaceId, cutoff, limit: BATCH }));
  outcome.alerts = await q.deleteOldAlerts({ workspaceId, cutoff });
  return outcome;
}

/** Repeats a batched delete until a batch deletes nothing; returns the total. */
async function drain(batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let n = await batch(); n > 0; n = await batch()) total += n;
  return total;
}
