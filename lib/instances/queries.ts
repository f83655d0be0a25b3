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

const INTERRUPTED = JSON.stringify({ kind: "interrupted", message: "The console instance that sent it stopped before the answer arrived" });

/**
 * Pending calls of instances not in `alive` never get their answer recorded. Task calls are not
 * interrupted: their task lives on the server, and the poller resumes them.
 */
export function interruptOrphans({ alive }: { alive: string[] }) {
  return prisma.call.updateMany({
    where: { status: "pending", taskId: null, OR: [{ instanceId: null }, { instanceId: { notIn: alive } }] },
    data: { status: "interrupted", finishedAt: new Date(), error: INTERRUPTED },
  });
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

/** At a graceful stop: this instance's own calls still pending. */
export function interruptOwn({ id }: { id: string }) {
  return prisma.call.updateMany({
    where: { status: "pending", taskId: null, instanceId: id },
    data: { status: "interrupted", finishedAt: new Date(), error: INTERRUPTED },
  });
}

/**
 * Takes over the task calls still pending of instances not in `alive` (their task lives on at the
 * server): each is claimed by a conditional update, so two instances never both follow one.
 */
export async function claimTaskCalls({ alive, me }: { alive: string[]; me: string }): Promise<string[]> {
  const orphans = await prisma.call.findMany({
    where: { status: "pending", taskId: { not: null }, OR: [{ instanceId: null }, { instanceId: { notIn: alive } }] },
    select: { id: true, instanceId: true },
  });
  const claimed: string[] = [];
  for (const call of orphans) {
    const { count } = await prisma.call.updateMany({ where: { id: call.id, status: "pending", instanceId: call.instanceId }, data: { instanceId: me } });
    if (count) claimed.push(call.id);
  }
  return claimed;
}
