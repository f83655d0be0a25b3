import { prisma } from "@/lib/core/db/client";

// Imported by the retention job lib/start runs (outside Next), so no "server-only" here.

/** Workspaces that keep history for a limited number of days. */
export function listWorkspacesWithRetention() {
  return prisma.workspace.findMany({ where: { retentionDays: { gt: 0 } }, select: { id: true, retentionDays: true } });
}

/** Ended sessions closed before `cutoff` that no call refers to any more. */
export async function findOldSessions({ workspaceId, cutoff, limit }: { workspaceId: string; cutoff: Date; limit: number }): Promise<string[]> {
  const rows = await prisma.mcpSession.findMany({
    where: { workspaceId, status: { in: ["closed", "failed"] }, closedAt: { lt: cutoff }, calls: { none: {} } },
    select: { id: true },
    take: limit,
  });
  return rows.map((r) => r.id);
}

/** Deletes up to `limit` log lines of the given sessions. */
export async function deleteSessionLogs({ sessionIds, limit }: { sessionIds: string[]; limit: number }): Promise<number> {
  const rows = await prisma.sessionLog.findMany({ where: { sessionId: { in: sessionIds } }, select: { id: true }, take: limit });
  if (!rows.length) return 0;
  return (await prisma.sessionLog.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } })).count;
}

/** Deletes up to `limit` traffic messages of the given sessions. */
export async function deleteSessionTraffic({ sessionIds, limit }: { sessionIds: string[]; limit: number }): Promise<number> {
  const rows = await prisma.trafficMessage.findMany({ where: { sessionId: { in: sessionIds } }, select: { id: true }, take: limit });
  if (!rows.length) return 0;
  return (await prisma.trafficMessage.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } })).count;
}

export async function deleteSessions({ ids }: { ids: string[] }): Promise<number> {
  return (await prisma.mcpSession.deleteMany({ where: { id: { in: ids } } })).count;
}

/** Alerts raised before `cutoff`, and incidents that ended before it (an open one stays, however old). */
export async function deleteOldAlerts({ workspaceId, cutoff }: { workspaceId: string; cutoff: Date }): Promise<number> {
  const [alerts] = await prisma.$transaction([
    prisma.alert.deleteMany({ where: { workspaceId, createdAt: { lt: cutoff } } }),
    prisma.incident.deleteMany({ where: { workspaceId, endedAt: { lt: cutoff } } }),
  ]);
  return alerts.count;
}
