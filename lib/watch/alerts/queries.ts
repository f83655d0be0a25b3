import { isUniqueViolation, prisma } from "@/lib/core/db/client";

/** A transaction's client: a monitor's alert is recorded in the one that opens or closes its incident. */
export type Tx = Parameters<Parameters<typeof prisma.$transaction>[0]>[0];

export function insertAlert({ data, tx }: { data: { workspaceId: string; event: string; text: string; path: string; monitorId: string | null; monitorName: string | null; serverId: string | null; serverName: string | null; runId: string | null; incidentId: string | null; deliveries: string; targets: string | null }; tx?: Tx }) {
  return tx ? tx.alert.create({ data }) : prisma.alert.create({ data });
}

export function setAlertDeliveries({ id, deliveries }: { id: string; deliveries: string }) {
  return prisma.alert.update({ where: { id }, data: { deliveries } });
}

export function listAlertRows({ workspaceId, limit }: { workspaceId: string; limit: number }) {
  return prisma.alert.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
}

/** Alerts with a delivery still pending, raised between `from` and `to` (oldest first). */
export function pendingAlertRows({ from, to }: { from: Date; to: Date }) {
  return prisma.alert.findMany({ where: { createdAt: { gte: from, lt: to }, targets: { not: null }, deliveries: { contains: '"detail":"pending"' } }, orderBy: { createdAt: "asc" }, take: 100 });
}

export function findAlertRow({ id }: { id: string }) {
  return prisma.alert.findUnique({ where: { id } });
}

export function findWorkspaceAlertRow({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.alert.findFirst({ where: { workspaceId, id }, select: { createdAt: true } });
}

export function newestAlertRow({ workspaceId }: { workspaceId: string }) {
  return prisma.alert.findFirst({ where: { workspaceId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { createdAt: true } });
}

export function countAlertsAfter({ workspaceId, after, events }: { workspaceId: string; after: Date; events: string[] }) {
  return prisma.alert.count({ where: { workspaceId, createdAt: { gt: after }, event: { in: events } } });
}

/** Where a person's unread alerts start: their marker, else when they joined the workspace. */
export async function findAlertsSeen({ workspaceId, userId }: { workspaceId: string; userId: string }) {
  const [seen, member] = await Promise.all([
    prisma.alertSeen.findUnique({ where: { workspaceId_userId: { workspaceId, userId } }, select: { seenAt: true } }),
    prisma.member.findUnique({ where: { workspaceId_userId: { workspaceId, userId } }, select: { createdAt: true } }),
  ]);
  return { seenAt: seen?.seenAt ?? null, joinedAt: member?.createdAt ?? null };
}

/** Moves a person's marker forward to `seenAt` (never back); two tabs marking at once both land. */
export async function advanceAlertsSeen({ workspaceId, userId, seenAt }: { workspaceId: string; userId: string; seenAt: Date }): Promise<void> {
  const moved = await prisma.alertSeen.updateMany({ where: { workspaceId, userId, seenAt: { lt: seenAt } }, data: { seenAt } });
  if (moved.count) return;
  try {
    await prisma.alertSeen.create({ data: { workspaceId, userId, seenAt } });
  } catch (err) {
    // The row exists (already as far, or another tab created it first): move it if it is behind.
    if (!isUniqueViolation(err)) throw err;
    await prisma.alertSeen.updateMany({ where: { workspaceId, userId, seenAt: { lt: seenAt } }, data: { seenAt } });
  }
}

export type AlertRow = Awaited<ReturnType<typeof insertAlert>>;
