import { prisma } from "@/lib/db/client";

const withCollection = { collection: { select: { name: true } } };

export function listMonitorRows({ workspaceId }: { workspaceId: string }) {
  return prisma.monitor.findMany({ where: { workspaceId }, orderBy: [{ name: "asc" }, { id: "asc" }], include: withCollection });
}

export function findMonitorRow({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.monitor.findFirst({ where: { workspaceId, id }, include: withCollection });
}

export type MonitorRow = NonNullable<Awaited<ReturnType<typeof findMonitorRow>>>;

export function insertMonitor({
  data,
}: {
  data: { workspaceId: string; name: string; collectionId: string; environment: string | null; schedule: string; mail: string; webhooks: string; maxDurationMs: number | null; enabled: boolean; createdById: string; createdByName: string; nextRunAt: Date | null };
}) {
  return prisma.monitor.create({ data, include: withCollection });
}

export function updateMonitor({ id, data }: { id: string; data: { name?: string; environment?: string | null; schedule?: string; mail?: string; webhooks?: string; maxDurationMs?: number | null; enabled?: boolean; nextRunAt?: Date | null } }) {
  return prisma.monitor.update({ where: { id }, data, include: withCollection });
}

export function deleteMonitor({ id }: { id: string }) {
  return prisma.monitor.delete({ where: { id } });
}

/** The last run of each monitor, its open incidents and its last tick (for the DTO's state), in five queries whatever the count. */
export async function monitorStatus({ ids }: { ids: string[] }) {
  const [lastRuns, incidents, lastTicks] = await Promise.all([
    prisma.collectionRun.groupBy({ by: ["monitorId"], where: { monitorId: { in: ids } }, _max: { startedAt: true } }),
    prisma.incident.findMany({ where: { monitorId: { in: ids }, endedAt: null } }),
    prisma.monitorTick.groupBy({ by: ["monitorId"], where: { monitorId: { in: ids } }, _max: { dueAt: true } }),
  ]);
  const [runs, ticks] = await Promise.all([
    prisma.collectionRun.findMany({
      where: { OR: lastRuns.map((r) => ({ monitorId: r.monitorId, startedAt: r._max.startedAt! })) },
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      select: { id: true, monitorId: true, status: true, startedAt: true, finishedAt: true },
    }),
    // (monitor, due time) is unique: one tick each.
    prisma.monitorTick.findMany({ where: { OR: lastTicks.map((t) => ({ monitorId: t.monitorId, dueAt: t._max.dueAt! })) } }),
  ]);
  return { runs, incidents, ticks };
}

// Scheduling

export function dueMonitors({ now, limit }: { now: Date; limit: number }) {
  return prisma.monitor.findMany({ where: { enabled: true, nextRunAt: { lte: now } }, orderBy: { nextRunAt: "asc" }, take: limit });
}

export type DueMonitor = Awaited<ReturnType<typeof dueMonitors>>[number];

/** Compare-and-set: moves a monitor's next run from `due` to `next`; 1 when this instance won the tick. */
export async function claimTick({ id, due, next }: { id: string; due: Date; next: Date }): Promise<boolean> {
  const { count } = await prisma.monitor.updateMany({ where: { id, enabled: true, nextRunAt: due }, data: { nextRunAt: next } });
  return count === 1;
}

export function insertTick({ data }: { data: { monitorId: string; workspaceId: string; dueAt: Date; instanceId: string; outcome: string; reason: string | null; runId: string | null } }) {
  return prisma.monitorTick.create({ data });
}

export function updateTick({ id, data }: { id: string; data: { outcome?: string; reason?: string | null; runId?: string | null } }) {
  return prisma.monitorTick.update({ where: { id }, data });
}

/** Ticks are kept for a week (a 5 s monitor records 17,280 a day); runs stay as collection runs. */
export function pruneTicks({ before }: { before: Date }) {
  return prisma.monitorTick.deleteMany({ where: { dueAt: { lt: before } } });
}

export function listTicks({ monitorId, limit }: { monitorId: string; limit: number }) {
  return prisma.monitorTick.findMany({ where: { monitorId }, orderBy: { dueAt: "desc" }, take: limit });
}

/** The monitor's runs still running on an instance that is beating (`since`: the oldest live beat). */
export async function runningRuns({ monitorId, since }: { monitorId: string; since: Date }) {
  const runs = await prisma.collectionRun.findMany({ where: { monitorId, status: "running" }, select: { id: true, instanceId: true } });
  if (!runs.length) return [];
  const live = await prisma.instance.findMany({ where: { id: { in: runs.map((r) => r.instanceId ?? "") }, heartbeatAt: { gte: since } }, select: { id: true } });
  const ids = new Set(live.map((i) => i.id));
  return runs.filter((r) => r.instanceId && ids.has(r.instanceId));
}

export function findMemberRole({ workspaceId, userId }: { workspaceId: string; userId: string }) {
  return prisma.member.findFirst({ where: { workspaceId, userId }, select: { role: true, user: { select: { name: true } } } });
}

// Incidents

export function listIncidents({ monitorId, since, limit }: { monitorId: string; since?: Date; limit: number }) {
  const where = since ? { monitorId, OR: [{ endedAt: null }, { endedAt: { gte: since } }] } : { monitorId };
  return prisma.incident.findMany({ where, orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: limit });
}

export function findOpenIncident({ monitorId, kind }: { monitorId: string; kind: string }) {
  return prisma.incident.findFirst({ where: { monitorId, kind, endedAt: null } });
}

/** Opens an incident; the unique `openKey` (monitor and kind while open) makes a second opener fail. */
export function openIncident({ data }: { data: { workspaceId: string; monitorId: string; kind: string; runIds: string } }) {
  return prisma.incident.create({ data: { ...data, openKey: `${data.monitorId}:${data.kind}` } });
}

export function setIncidentRuns({ id, runIds }: { id: string; runIds: string }) {
  return prisma.incident.update({ where: { id }, data: { runIds } });
}

/** Closes an open incident; true for the one instance whose write closed it. */
export async function closeIncident({ id, at }: { id: string; at: Date }): Promise<boolean> {
  const { count } = await prisma.incident.updateMany({ where: { id, endedAt: null }, data: { endedAt: at, openKey: null } });
  return count === 1;
}

// Uptime

export function finishedRuns({ monitorId, since }: { monitorId: string; since: Date }) {
  return prisma.collectionRun.findMany({ where: { monitorId, startedAt: { gte: since }, finishedAt: { not: null } }, select: { status: true, startedAt: true, finishedAt: true }, orderBy: { startedAt: "asc" } });
}
