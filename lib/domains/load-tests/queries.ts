import { prisma } from "@/lib/core/db/client";

// The one writer of table load_test.

const STOPPED = "The console instance running this load test stopped (or stopped renewing its lease)";

export function insertLoadTest({ data }: { data: { workspaceId: string; config: string; collectionId: string | null; serverId: string | null; label: string; steps: string; startedById: string | null; startedByName: string | null; instanceId: string; leaseUntil: Date } }) {
  return prisma.loadTest.create({ data });
}

export function findLoadTest({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.loadTest.findFirst({ where: { workspaceId, id } });
}

export type LoadTestRow = NonNullable<Awaited<ReturnType<typeof findLoadTest>>>;

export function listLoadTests({ workspaceId, limit }: { workspaceId: string; limit: number }) {
  return prisma.loadTest.findMany({ where: { workspaceId }, orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: limit });
}

export function findRunningLoadTest({ workspaceId }: { workspaceId: string }) {
  return prisma.loadTest.findFirst({ where: { workspaceId, status: "running" }, select: { id: true } });
}

/**
 * Another running test of the workspace that started before this one (by start, then id): of two
 * tests inserted at once each sees the other, and only the later gives way.
 */
export function findEarlierRunning({ workspaceId, id, startedAt }: { workspaceId: string; id: string; startedAt: Date }) {
  return prisma.loadTest.findFirst({ where: { workspaceId, status: "running", id: { not: id }, OR: [{ startedAt: { lt: startedAt } }, { startedAt, id: { lt: id } }] }, select: { id: true } });
}

/** A test that gave way before it ran (see findEarlierRunning). */
export function deleteLoadTest({ id }: { id: string }) {
  return prisma.loadTest.deleteMany({ where: { id } });
}

export interface Figures {
  calls: number;
  errors: string;
  callsPerSecond: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  steps: string;
  series: string;
  sampleCallIds: string;
  lag: string | null;
}

/** Progress of a running test, renewing its lease; 0 when it is no longer running (cancelled or reaped). */
export async function writeProgress({ id, figures, leaseMs }: { id: string; figures: Figures; leaseMs: number }): Promise<number> {
  const { count } = await prisma.loadTest.updateMany({ where: { id, status: "running" }, data: { ...figures, leaseUntil: new Date(Date.now() + leaseMs) } });
  return count;
}

/**
 * The end of a test as its runner saw it: `status` when it was still running; a test cancelled
 * meanwhile keeps `cancelled` and gets its last figures. How many rows changed.
 */
export async function writeEnd({ id, figures, status, error }: { id: string; figures: Figures; status: string; error: string | null }): Promise<number> {
  const finishedAt = new Date();
  const ran = await prisma.loadTest.updateMany({ where: { id, status: "running" }, data: { ...figures, status, error, finishedAt, leaseUntil: null } });
  if (ran.count) return ran.count;
  return (await prisma.loadTest.updateMany({ where: { id, status: "cancelled" }, data: { ...figures, leaseUntil: null } })).count;
}

/** A running test ended `cancelled` (its runner, wherever it is, stops at its next flush); how many. */
export async function cancelLoadTest({ workspaceId, id }: { workspaceId: string; id: string }): Promise<number> {
  return (await prisma.loadTest.updateMany({ where: { workspaceId, id, status: "running" }, data: { status: "cancelled", finishedAt: new Date() } })).count;
}

async function interrupt(where: object): Promise<number> {
  const { count } = await prisma.loadTest.updateMany({ where: { status: "running", ...where }, data: { status: "interrupted", error: STOPPED, finishedAt: new Date(), leaseUntil: null } });
  return count;
}

/** Running tests whose lease ran out (their instance stopped writing) ended `interrupted`; how many. */
export function reapExpiredLoadTests(): Promise<number> {
  return interrupt({ leaseUntil: { lt: new Date() } });
}

/** What lib/core/instances does to load tests when instances come and go (handed in by lib/start). */
export const instanceLoadTests = {
  interruptOrphans: (alive: string[]) => interrupt({ OR: [{ instanceId: null }, { instanceId: { notIn: alive } }] }),
  interruptOwn: (id: string) => interrupt({ instanceId: id }),
};

/** Retention (lib/domains/retention, handed in by lib/start): a batch of finished load tests started before `cutoff`. */
export async function deleteOldLoadTests({ workspaceId, cutoff, limit }: { workspaceId: string; cutoff: Date; limit: number }): Promise<number> {
  const rows = await prisma.loadTest.findMany({ where: { workspaceId, startedAt: { lt: cutoff }, status: { not: "running" } }, select: { id: true }, take: limit });
  if (!rows.length) return 0;
  return (await prisma.loadTest.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } })).count;
}
