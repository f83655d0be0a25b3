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

/**
 * Collection runs (lib/collections) step through their calls in their instance's process: they
 * end with it. The step that was running is an error, the steps not reached are skipped.
 */
export async function interruptRuns(which: { alive: string[] } | { own: string }) {
  const where = "own" in which ? { instanceId: which.own } : { OR: [{ instanceId: null }, { instanceId: { notIn: which.alive } }] };
  const runs = await prisma.collectionRun.findMany({ where: { status: "running", ...where }, select: { id: true } });
  if (!runs.length) return 0;
  const runId = { in: runs.map((r) => r.id) };
  await prisma.collectionRunStep.updateMany({ where: { runId, status: "running" }, data: { status: "error", error: "interrupted: the console instance running this step stopped" } });
  await prisma.collectionRunStep.updateMany({ where: { runId, status: "pending" }, data: { status: "skipped" } });
  const { count } = await prisma.collectionRun.updateMany({ where: { id: runId, status: "running" }, data: { status: "error", finishedAt: new Date() } });
  return count;
}
