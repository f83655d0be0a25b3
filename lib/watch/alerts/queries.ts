import { prisma } from "@/lib/core/db/client";

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

export type AlertRow = Awaited<ReturnType<typeof insertAlert>>;
