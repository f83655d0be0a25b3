import * as q from "./queries";

// Run by the retention job (lib/start hands it to lib/domains/retention): no "server-only".

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Purges audit rows older than each workspace's `auditRetentionDays`, except under a legal hold
 * (re-checked in the purge's transaction). Each purge is itself recorded, with the chain's anchor.
 */
export async function purgeExpiredAudit({ now = new Date() }: { now?: Date } = {}): Promise<{ workspaces: number; rows: number }> {
  let workspaces = 0;
  let rows = 0;
  for (const ws of await q.listWorkspacesWithAuditRetention()) {
    const days = ws.auditRetentionDays!;
    const purged = await q.purgeAuditRows({ workspaceId: ws.id, cutoff: new Date(now.getTime() - days * DAY_MS), retentionDays: days });
    if (purged) (workspaces++, (rows += purged));
  }
  return { workspaces, rows };
}
