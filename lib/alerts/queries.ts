import { prisma } from "@/lib/db/client";

export function insertAlert({ data }: { data: { workspaceId: string; event: string; text: string; path: string; monitorId: string | null; monitorName: string | null; serverId: string | null; serverName: string | null; runId: string | null; incidentId: string | null; deliveries: string } }) {
  return prisma.alert.create({ data });
}

export function setAlertDeliveries({ id, deliveries }: { id: string; deliveries: string }) {
  return prisma.alert.update({ where: { id }, data: { deliveries } });
}

export function listAlertRows({ workspaceId, limit }: { workspaceId: string; limit: number }) {
  return prisma.alert.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit });
}

export type AlertRow = Awaited<ReturnType<typeof insertAlert>>;
