import { prisma } from "@/lib/db/client";

export function insertInstance({ id, host, pid }: { id: string; host: string; pid: number }) {
  return prisma.instance.create({ data: { id, host, pid } });
}

export function beat({ id }: { id: string }) {
  return prisma.instance.upsert({ where: { id }, update: { heartbeatAt: new Date() }, create: { id, host: "", pid: 0 } });
}

export function deleteInstances({ ids }: { ids: string[] }) {
  return prisma.instance.deleteMany({ where: { id: { in: ids } } });
}

export function findInstances() {
  return prisma.instance.findMany({ orderBy: { startedAt: "asc" } });
}

/** Gateway sessions (lib/gateway) live in their instance's memory: they end with it. */
export function endGatewayConnections({ alive }: { alive: string[] }) {
  return prisma.gatewayConnection.updateMany({
    where: { endedAt: null, OR: [{ instanceId: null }, { instanceId: { notIn: alive } }] },
    data: { endedAt: new Date(), endReason: "restart" },
  });
}

export function endOwnGatewayConnections({ id }: { id: string }) {
  return prisma.gatewayConnection.updateMany({ where: { endedAt: null, instanceId: id }, data: { endedAt: new Date(), endReason: "restart" } });
}
