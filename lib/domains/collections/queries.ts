import { databaseProvider, prisma, sql } from "@/lib/core/db/client";
import { AUTOMATIC_RUN_ORIGINS } from "./index";

// Collections

// A collection's last run is a person's (a 5-second monitor's would hide it).
const lastRunInclude = { runs: { where: { origin: { notIn: [...AUTOMATIC_RUN_ORIGINS] } }, orderBy: [{ startedAt: "desc" as const }, { id: "desc" as const }], take: 1 } };

export function listCollections({ workspaceId, name }: { workspaceId: string; name?: string }) {
  return prisma.collection.findMany({ where: { workspaceId, ...(name === undefined ? {} : { name }) }, orderBy: [{ name: "asc" }, { id: "asc" }], include: lastRunInclude });
}

export function listCollectionNames({ workspaceId }: { workspaceId: string }) {
  return prisma.collection.findMany({ where: { workspaceId }, select: { name: true } });
}

export function findCollection({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.collection.findFirst({ where: { workspaceId, id }, include: lastRunInclude });
}

export type CollectionRow = NonNullable<Awaited<ReturnType<typeof findCollection>>>;

export function insertCollection({ data }: { data: { workspaceId: string; name: string; description: string | null; steps: string; variables: string; createdById: string; createdByName: string } }) {
  return prisma.collection.create({ data, include: lastRunInclude });
}

export function updateCollection({ id, data }: { id: string; data: { name?: string; description?: string | null; steps?: string; variables?: string } }) {
  return prisma.collection.update({ where: { id }, data, include: lastRunInclude });
}

export function deleteCollection({ id }: { id: string }) {
  return prisma.collection.delete({ where: { id } });
}

// Environments

export function listEnvironments({ workspaceId }: { workspaceId: string }) {
  return prisma.environment.findMany({ where: { workspaceId }, orderBy: [{ name: "asc" }, { id: "asc" }] });
}

export function findEnvironment({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.environment.findFirst({ where: { workspaceId, id } });
}

/** A run names its environment by name or by id. */
export function findEnvironmentByNameOrId({ workspaceId, ref }: { workspaceId: string; ref: string }) {
  return prisma.environment.findFirst({ where: { workspaceId, OR: [{ name: ref }, { id: ref }] }, orderBy: { name: "asc" } });
}

/** The sealed secret values: only the runner and a secrets update read them. */
export async function findEnvironmentSecrets({ id }: { id: string }): Promise<string | null> {
  const row = await prisma.environment.findUnique({ where: { id }, select: { secrets: true } });
  return row?.secrets ?? null;
}

export type EnvironmentRow = NonNullable<Awaited<ReturnType<typeof findEnvironment>>>;

type EnvironmentData = { name?: string; values?: string; secrets?: string | null; secretNames?: string; servers?: string };

export function insertEnvironment({ data }: { data: EnvironmentData & { workspaceId: string; name: string } }) {
  return prisma.environment.create({ data });
}

export function updateEnvironment({ id, data }: { id: string; data: EnvironmentData }) {
  return prisma.environment.update({ where: { id }, data });
}

export function deleteEnvironment({ id }: { id: string }) {
  return prisma.environment.delete({ where: { id } });
}

// Runs

const stepsInclude = { steps: { orderBy: { index: "asc" as const } } };

/** A transaction's client (the scheduler claims a monitor's tick in the one that inserts its run). */
export type Tx = Parameters<Parameters<typeof prisma.$transaction>[0]>[0];

/** Runs in the transaction that inserts a run, given its id; false rolls the insert back. */
export type InsertRunClaim = (tx: Tx, runId: string) => Promise<boolean>;

/** Rolls back a run's insert when its `claim` was lost. */
class Unclaimed extends Error {}

/**
 * Inserts a `running` run, its steps and its lease in one transaction with `claim` (given the
 * run's id): when `claim` answers false, nothing is written and the answer is null.
 */
export async function insertRun({
  data,
  steps,
  leaseMs,
  claim,
}: {
  data: { workspaceId: string; collectionId: string; collectionName: string; environmentName: string | null; origin: string; stopOnFailure: boolean; startedById: string; startedByName: string; instanceId: string; variables: string; total: number; monitorId?: string | null };
  steps: { index: number; stepId: string; label: string }[];
  leaseMs: number;
  claim?: InsertRunClaim;
}) {
  try {
    return await prisma.$transaction(async (tx) => {
      const run = await tx.collectionRun.create({ data: { ...data, status: "running", steps: { create: steps.map((s) => ({ ...s, status: "pending" })) } }, include: stepsInclude });
      await renewLease({ id: run.id, ms: leaseMs, tx });
      if (claim && !(await claim(tx, run.id))) throw new Unclaimed();
      return run;
    });
  } catch (err) {
    if (err instanceof Unclaimed) return null;
    throw err;
  }
}

export function findRun({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.collectionRun.findFirst({ where: { workspaceId, id }, include: stepsInclude });
}

export type RunRow = NonNullable<Awaited<ReturnType<typeof findRun>>>;

/** `origins` null: every run; else those origins (collection_run_collection_origin_idx), newest first. */
export function listRuns({ workspaceId, collectionId, origins, limit }: { workspaceId: string; collectionId: string; origins: readonly string[] | null; limit: number }) {
  return prisma.collectionRun.findMany({ where: { workspaceId, collectionId, ...(origins ? { origin: { in: [...origins] } } : {}) }, orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: limit });
}

export function listMonitorRuns({ workspaceId, monitorId, limit }: { workspaceId: string; monitorId: string; limit: number }) {
  return prisma.collectionRun.findMany({ where: { workspaceId, monitorId }, orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: limit, include: stepsInclude });
}

// The runner's writes change a run only while it is `running`: once reaped (its lease ran out), a
// late write of its instance changes nothing, and a count of 0 tells the runner to stop.

export async function updateRunStep({ runId, index, data }: { runId: string; index: number; data: { status: string; callId?: string | null; durationMs?: number | null; error?: string | null; assertions?: string } }): Promise<number> {
  return (await prisma.collectionRunStep.updateMany({ where: { runId, index, run: { is: { status: "running" } } }, data })).count;
}

export function skipRemainingSteps({ runId, from }: { runId: string; from: number }) {
  return prisma.collectionRunStep.updateMany({ where: { runId, index: { gte: from }, status: "pending" }, data: { status: "skipped" } });
}

export async function updateRun({ id, data }: { id: string; data: { status?: string; passed?: number; failed?: number; finishedAt?: Date } }): Promise<number> {
  const ending = data.status !== undefined && data.status !== "running";
  return (await prisma.collectionRun.updateMany({ where: { id, status: "running" }, data: ending ? { ...data, leaseUntil: null } : data })).count;
}

// Leases, measured by the database's clock on PostgreSQL (instances on several hosts share it, their
// own clocks may differ; timestamp(3) columns hold UTC as Prisma writes them). SQLite is one file on one host.
const postgres = databaseProvider === "postgresql";

/** Moves a running run's lease to `ms` from now; 0 when the run is no longer running. */
export async function renewLease({ id, ms, tx }: { id: string; ms: number; tx?: Tx }): Promise<number> {
  const where = { id, status: "running" };
  if (!postgres) return (await (tx ? tx.collectionRun.updateMany({ where, data: { leaseUntil: new Date(Date.now() + ms) } }) : prisma.collectionRun.updateMany({ where, data: { leaseUntil: new Date(Date.now() + ms) } }))).count;
  const statement = sql.sql`UPDATE "collection_run" SET "lease_until" = (now() AT TIME ZONE 'UTC') + ${Math.round(ms)}::int * interval '1 millisecond' WHERE "id" = ${id} AND "status" = 'running'`;
  return tx ? tx.$executeRaw(statement) : prisma.$executeRaw(statement);
}

/** Running runs whose lease ran out (of one monitor, or all): their instance stopped renewing them. */
export async function expiredRuns({ monitorId }: { monitorId?: string } = {}): Promise<string[]> {
  if (!postgres) {
    const rows = await prisma.collectionRun.findMany({ where: { status: "running", leaseUntil: { lt: new Date() }, ...(monitorId ? { monitorId } : {}) }, select: { id: true } });
    return rows.map((r) => r.id);
  }
  const rows = await prisma.$queryRaw<{ id: string }[]>`SELECT "id" FROM "collection_run" WHERE "status" = 'running' AND "lease_until" < (now() AT TIME ZONE 'UTC') ${monitorId ? sql.sql`AND "monitor_id" = ${monitorId}` : sql.empty}`;
  return rows.map((r) => r.id);
}

/**
 * Ends running runs as `interrupted` (they say nothing about the servers they called): the step
 * that was running is `interrupted` with `reason` as its error, the steps not reached are skipped.
 * How many ended.
 */
export async function interruptRuns({ ids, reason }: { ids: string[]; reason: string }): Promise<number> {
  if (!ids.length) return 0;
  const runId = { in: ids };
  const [, , ended] = await prisma.$transaction([
    prisma.collectionRunStep.updateMany({ where: { runId, status: "running", run: { is: { status: "running" } } }, data: { status: "interrupted", error: reason } }),
    prisma.collectionRunStep.updateMany({ where: { runId, status: "pending", run: { is: { status: "running" } } }, data: { status: "skipped" } }),
    prisma.collectionRun.updateMany({ where: { id: runId, status: "running" }, data: { status: "interrupted", finishedAt: new Date(), leaseUntil: null } }),
  ]);
  return ended.count;
}

const INSTANCE_STOPPED = "The console instance running this step stopped";

/**
 * What lib/core/instances needs of runs when instances come and go (handed to it by lib/start, since
 * this domain depends on it): a run steps through its calls in its instance's process and ends
 * with it.
 */
export const instanceRuns = {
  /** Running runs of instances not in `alive` (or of none) ended `interrupted`; how many. */
  async interruptOrphans(alive: string[]): Promise<number> {
    const runs = await prisma.collectionRun.findMany({ where: { status: "running", OR: [{ instanceId: null }, { instanceId: { notIn: alive } }] }, select: { id: true } });
    return interruptRuns({ ids: runs.map((r) => r.id), reason: INSTANCE_STOPPED });
  },
  /** This instance's running runs ended `interrupted`, at a graceful stop; how many. */
  async interruptOwn(id: string): Promise<number> {
    const runs = await prisma.collectionRun.findMany({ where: { status: "running", instanceId: id }, select: { id: true } });
    return interruptRuns({ ids: runs.map((r) => r.id), reason: INSTANCE_STOPPED });
  },
};

/** Finished runs (a monitor's included) that started before `cutoff`, up to `limit` (retention); steps and shares go by cascade. How many. */
export async function deleteOldRuns({ workspaceId, cutoff, limit }: { workspaceId: string; cutoff: Date; limit: number }): Promise<number> {
  const rows = await prisma.collectionRun.findMany({ where: { workspaceId, startedAt: { lt: cutoff }, status: { not: "running" } }, select: { id: true }, take: limit });
  if (!rows.length) return 0;
  return (await prisma.collectionRun.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } })).count;
}
