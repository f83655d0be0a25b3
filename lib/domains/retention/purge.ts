import type { RetentionOutcome } from "./index";
import * as q from "./queries";

// Run by lib/start's scheduler, outside Next's bundles: nothing here may import "server-only".

/** Rows per delete statement. */
const BATCH = 5000;
/** Sessions handled per round of log, traffic and session deletes. */
const SESSION_BATCH = 200;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The audit writer (lib/core/audit's insertAuditEvents), handed in by lib/start. */
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

/** What else must forget the purged calls (lib/domains/stats' rollups), handed in by lib/start. */
type OnCallsPurged = (input: { workspaceId: string; before: Date }) => Promise<unknown>;

/** The owners' deletes of old calls (lib/domains/calls), runs (lib/domains/collections), replays and load tests, handed in by lib/start: one writer per table. */
type OwnedDeletes = Record<"calls" | "runs" | "replays" | "loadTests", (input: { workspaceId: string; cutoff: Date; limit: number }) => Promise<number>>;

/** The audit log's own purge (lib/core/audit: retention days, legal hold, the chain's anchor), handed in by lib/start. */
type PurgeAudit = (input: { now: Date }) => Promise<{ workspaces: number; rows: number }>;

type RetentionRun = RetentionOutcome & { workspaceId: string };

/**
 * One purge over every workspace with a retention period (the `retention` job, once per due time
 * across instances): what it purged, for the job's log line.
 */
export async function purgeExpiredHistory({ recordAudit, onCallsPurged, deletes, purgeAudit, now = new Date() }: { recordAudit: RecordAudit; onCallsPurged?: OnCallsPurged; deletes: OwnedDeletes; purgeAudit?: PurgeAudit; now?: Date }): Promise<string | void> {
  const runs = await purgeAll({ now, recordAudit, onCallsPurged, deletes });
  const audit = purgeAudit ? await purgeAudit({ now }) : { workspaces: 0, rows: 0 };
  const lines = [
    ...(runs.length ? [`purged ${runs.reduce((n, r) => n + r.calls, 0)} call(s) and ${runs.reduce((n, r) => n + r.sessions, 0)} session(s) in ${runs.length} workspace(s)`] : []),
    ...(audit.rows ? [`purged ${audit.rows} audit event(s) in ${audit.workspaces} workspace(s)`] : []),
  ];
  if (lines.length) return lines.join("; ");
}

async function purgeAll({ now, recordAudit, onCallsPurged, deletes }: { now: Date; recordAudit: RecordAudit; onCallsPurged?: OnCallsPurged; deletes: OwnedDeletes }): Promise<RetentionRun[]> {
  const runs: RetentionRun[] = [];
  for (const workspace of await q.listWorkspacesWithRetention()) {
    const days = workspace.retentionDays!;
    const outcome = await purgeWorkspace({ workspaceId: workspace.id, retentionDays: days, cutoff: new Date(now.getTime() - days * DAY_MS), onCallsPurged, deletes });
    if (outcome.calls + outcome.sessions + outcome.logs + outcome.traffic + outcome.runs + outcome.alerts === 0) continue;
    runs.push({ workspaceId: workspace.id, ...outcome });
    await recordAudit({
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

async function purgeWorkspace({ workspaceId, retentionDays, cutoff, onCallsPurged, deletes }: { workspaceId: string; retentionDays: number; cutoff: Date; onCallsPurged?: OnCallsPurged; deletes: OwnedDeletes }): Promise<RetentionOutcome> {
  const outcome: RetentionOutcome = { retentionDays, cutoff: cutoff.toISOString(), calls: 0, sessions: 0, logs: 0, traffic: 0, runs: 0, alerts: 0 };
  outcome.calls = await drain(() => deletes.calls({ workspaceId, cutoff, limit: BATCH }));
  if (outcome.calls) await onCallsPurged?.({ workspaceId, before: cutoff });
  for (;;) {
    const ids = await q.findOldSessions({ workspaceId, cutoff, limit: SESSION_BATCH });
    if (!ids.length) break;
    outcome.traffic += await drain(() => q.deleteSessionTraffic({ sessionIds: ids, limit: BATCH }));
    outcome.logs += await drain(() => q.deleteSessionLogs({ sessionIds: ids, limit: BATCH }));
    const deleted = await q.deleteSessions({ ids });
    outcome.sessions += deleted;
    if (!deleted) break;
  }
  outcome.runs = await drain(() => deletes.runs({ workspaceId, cutoff, limit: BATCH }));
  outcome.runs += await drain(() => deletes.replays({ workspaceId, cutoff, limit: BATCH }));
  outcome.runs += await drain(() => deletes.loadTests({ workspaceId, cutoff, limit: BATCH }));
  outcome.alerts = await q.deleteOldAlerts({ workspaceId, cutoff });
  return outcome;
}

/** Repeats a batched delete until a batch deletes nothing; returns the total. */
async function drain(batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (let n = await batch(); n > 0; n = await batch()) total += n;
  return total;
}
