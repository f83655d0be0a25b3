import { prisma, sql } from "@/lib/core/db/client";

const withCollection = { collection: { select: { name: true } } };

export function listMonitorRows({ workspaceId }: { workspaceId: string }) {
  return prisma.monitor.findMany({ where: { workspaceId }, orderBy: [{ name: "asc" }, { id: "asc" }], include: withCollection });
}

export function findMonitorRow({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.monitor.findFirst({ where: { workspaceId, id }, include: withCollection });
}

export type MonitorRow = NonNullable<Awaited<ReturnType<typeof findMonitorRow>>>;

export function countMonitors({ workspaceId }: { workspaceId: string }) {
  return prisma.monitor.count({ where: { workspaceId } });
}

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

/**
 * Each monitor's last run (perhaps still running) and last settled run (passed, failed or error: its
 * state), its open incidents and its last tick, in five queries whatever the count. The runs are
 * found newest first in the (monitor, startedAt) index, never by reading all of a monitor's runs.
 */
export async function monitorStatus({ ids }: { ids: string[] }) {
  const [lastRuns, incidents, lastTicks] = await Promise.all([
    prisma.$queryRaw<{ monitorId: string; latest: string | null; settled: string | null }[]>`
      SELECT m.id AS "monitorId",
        (SELECT r.id FROM "collection_run" r WHERE r.monitor_id = m.id ORDER BY r.started_at DESC LIMIT 1) AS latest,
        (SELECT r.id FROM "collection_run" r WHERE r.monitor_id = m.id AND r.status IN ('passed', 'failed', 'error') ORDER BY r.started_at DESC LIMIT 1) AS settled
      FROM "monitor" m WHERE m.id IN (${sql.join(ids)})`,
    prisma.incident.findMany({ where: { monitorId: { in: ids }, endedAt: null } }),
    prisma.monitorTick.groupBy({ by: ["monitorId"], where: { monitorId: { in: ids } }, _max: { dueAt: true } }),
  ]);
  const runIds = lastRuns.flatMap((r) => [r.latest, r.settled]).filter((id): id is string => id !== null);
  const [found, ticks] = await Promise.all([
    prisma.collectionRun.findMany({ where: { id: { in: runIds } }, select: { id: true, monitorId: true, status: true, startedAt: true, finishedAt: true } }),
    // (monitor, due time) is unique: one tick each.
    prisma.monitorTick.findMany({ where: { OR: lastTicks.map((t) => ({ monitorId: t.monitorId, dueAt: t._max.dueAt! })) } }),
  ]);
  const byId = new Map(found.map((r) => [r.id, r]));
  const runs = lastRuns.map((r) => ({ monitorId: r.monitorId, latest: (r.latest && byId.get(r.latest)) || null, settled: (r.settled && byId.get(r.settled)) || null }));
  return { runs, incidents, ticks };
}

// Scheduling

export function dueMonitors({ now, limit }: { now: Date; limit: number }) {
  return prisma.monitor.findMany({ where: { enabled: true, nextRunAt: { lte: now } }, orderBy: { nextRunAt: "asc" }, take: limit });
}

export type DueMonitor = Awaited<ReturnType<typeof dueMonitors>>[number];

type Tx = Parameters<Parameters<typeof prisma.$transaction>[0]>[0];

export interface TickClaim {
  monitorId: string;
  workspaceId: string;
  due: Date;
  next: Date;
  instanceId: string;
  outcome: "ran" | "skipped";
  reason: string | null;
  runId: string | null;
}

/**
 * Claims a due tick and records it, in `tx`: a compare-and-set moves the monitor's next run from
 * `due` to `next` (true for the one instance whose statement changed the row), then the tick is
 * inserted (its unique (monitor, due) a second guard). Both commit with the caller's transaction
 * (the run's insert, for a tick that runs) or neither: a failed write leaves the due time due.
 */
export async function claimTick({ tx, claim }: { tx: Tx; claim: TickClaim }): Promise<boolean> {
  const { monitorId, workspaceId, due, next, instanceId, outcome, reason, runId } = claim;
  const { count } = await tx.monitor.updateMany({ where: { id: monitorId, enabled: true, nextRunAt: due }, data: { nextRunAt: next } });
  if (count !== 1) return false;
  await tx.monitorTick.create({ data: { monitorId, workspaceId, dueAt: due, instanceId, outcome, reason, runId } });
  return true;
}

/** A tick claimed and recorded as skipped, in one transaction; false when another instance had it. */
export function claimSkippedTick({ claim }: { claim: Omit<TickClaim, "outcome" | "runId"> }): Promise<boolean> {
  return prisma.$transaction((tx) => claimTick({ tx, claim: { ...claim, outcome: "skipped", runId: null } }));
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

/**
 * Opens an incident and runs `within` (its alert's insert) in the same transaction; the unique
 * `openKey` (monitor and kind while open) makes a second opener fail.
 */
export function openIncident<T>({ data, within }: { data: { workspaceId: string; monitorId: string; kind: string; runIds: string }; within: (tx: Tx, incidentId: string) => Promise<T> }): Promise<T> {
  return prisma.$transaction(async (tx) => {
    const incident = await tx.incident.create({ data: { ...data, openKey: `${data.monitorId}:${data.kind}` } });
    return within(tx, incident.id);
  });
}

export function setIncidentRuns({ id, runIds }: { id: string; runIds: string }) {
  return prisma.incident.update({ where: { id }, data: { runIds } });
}

/** Closes an open incident and runs `within` in the same transaction, for the one instance whose write closed it; else null. */
export function closeIncident<T>({ id, at, within }: { id: string; at: Date; within: (tx: Tx) => Promise<T> }): Promise<T | null> {
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.incident.updateMany({ where: { id, endedAt: null }, data: { endedAt: at, openKey: null } });
    return count === 1 ? within(tx) : null;
  });
}

// Uptime

export function finishedRuns({ monitorId, since }: { monitorId: string; since: Date }) {
  return prisma.collectionRun.findMany({ where: { monitorId, startedAt: { gte: since }, finishedAt: { not: null }, status: { not: "interrupted" } }, select: { status: true, startedAt: true, finishedAt: true }, orderBy: { startedAt: "asc" } });
}

/** Open incidents of every workspace by kind (lib/core/metrics, at scrape time). */
export function countOpenIncidents() {
  return prisma.incident.groupBy({ by: ["kind"], where: { endedAt: null }, _count: { _all: true } });
}
