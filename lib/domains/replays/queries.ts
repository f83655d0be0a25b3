import { databaseProvider, prisma, sql } from "@/lib/core/db/client";

const postgres = databaseProvider === "postgresql";
const itemsInclude = { items: { orderBy: { index: "asc" as const } } };

export interface ReplayItemInsert {
  index: number;
  callId: string;
  method: string;
  name: string;
}

/** Inserts a `running` replay with its pending items and its lease, in one transaction. */
export function insertReplay({
  data,
  items,
  leaseMs,
}: {
  data: { workspaceId: string; serverId: string; serverName: string; source: string; ignore: string; total: number; startedById: string; startedByName: string; instanceId: string };
  items: ReplayItemInsert[];
  leaseMs: number;
}) {
  return prisma.$transaction(async (tx) => {
    const replay = await tx.replay.create({ data: { ...data, status: "running", leaseUntil: new Date(Date.now() + leaseMs) } });
    // In slices: one statement per item would be slow, one for 500 rows may pass a driver's bound-parameter cap.
    for (let i = 0; i < items.length; i += 100) {
      await tx.replayItem.createMany({ data: items.slice(i, i + 100).map((item) => ({ ...item, replayId: replay.id, status: "pending" })) });
    }
    if (postgres) await tx.$executeRaw(leaseStatement(replay.id, leaseMs));
    return replay;
  });
}

export function findReplay({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.replay.findFirst({ where: { workspaceId, id }, include: itemsInclude });
}

export type ReplayRow = NonNullable<Awaited<ReturnType<typeof findReplay>>>;

export function listReplays({ workspaceId, limit }: { workspaceId: string; limit: number }) {
  return prisma.replay.findMany({ where: { workspaceId }, orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: limit });
}

/** Reads a mock's file (lib/domains/mocks owns the table): only what a replay re-sends. */
export function findMockData({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.mock.findFirst({ where: { workspaceId, id }, select: { id: true, name: true, data: true } });
}

/** One item's outcome, while its replay is still running (0: the replay was ended elsewhere). */
export async function updateItem({ replayId, index, data }: { replayId: string; index: number; data: { status: string; replayCallId: string | null; diff: string | null; error: string | null; durationMs: number | null } }): Promise<number> {
  const { count } = await prisma.replayItem.updateMany({ where: { replayId, index, replay: { is: { status: "running" } } }, data });
  return count;
}

/** A running replay's counts or its end (0: it was ended elsewhere, reaped). */
export async function updateReplay({ id, data }: { id: string; data: { same?: number; different?: number; errors?: number; status?: string; finishedAt?: Date; leaseUntil?: null } }): Promise<number> {
  const { count } = await prisma.replay.updateMany({ where: { id, status: "running" }, data });
  return count;
}

function leaseStatement(id: string, ms: number) {
  return sql.sql`UPDATE "replay" SET "lease_until" = (now() AT TIME ZONE 'UTC') + ${Math.round(ms)}::int * interval '1 millisecond' WHERE "id" = ${id} AND "status" = 'running'`;
}

/** Renews a running replay's lease (by the database's clock on PostgreSQL); 0 when it is no longer running. */
export async function renewLease({ id, ms }: { id: string; ms: number }): Promise<number> {
  if (postgres) return prisma.$executeRaw(leaseStatement(id, ms));
  return (await prisma.replay.updateMany({ where: { id, status: "running" }, data: { leaseUntil: new Date(Date.now() + ms) } })).count;
}

/** Running replays whose lease ran out: their instance stopped renewing them. */
export async function expiredReplays(): Promise<string[]> {
  if (!postgres) return (await prisma.replay.findMany({ where: { status: "running", leaseUntil: { lt: new Date() } }, select: { id: true } })).map((r) => r.id);
  const rows = await prisma.$queryRaw<{ id: string }[]>`SELECT "id" FROM "replay" WHERE "status" = 'running' AND "lease_until" < (now() AT TIME ZONE 'UTC')`;
  return rows.map((r) => r.id);
}

/** Ends running replays as `interrupted` (items not reached stay `pending`). How many ended. */
export async function interruptReplays({ ids }: { ids: string[] }): Promise<number> {
  if (!ids.length) return 0;
  const { count } = await prisma.replay.updateMany({ where: { id: { in: ids }, status: "running" }, data: { status: "interrupted", finishedAt: new Date(), leaseUntil: null } });
  return count;
}

/** What an instance's coming and going does to replays (handed to lib/core/instances by lib/start): a replay runs in its instance's process and ends with it. */
export const instanceReplays = {
  async interruptOrphans(alive: string[]): Promise<number> {
    const rows = await prisma.replay.findMany({ where: { status: "running", OR: [{ instanceId: null }, { instanceId: { notIn: alive } }] }, select: { id: true } });
    return interruptReplays({ ids: rows.map((r) => r.id) });
  },
  async interruptOwn(id: string): Promise<number> {
    const rows = await prisma.replay.findMany({ where: { status: "running", instanceId: id }, select: { id: true } });
    return interruptReplays({ ids: rows.map((r) => r.id) });
  },
};

/** Retention (lib/domains/retention, handed in by lib/start): a batch of finished replays started before `cutoff`. */
export async function deleteOldReplays({ workspaceId, cutoff, limit }: { workspaceId: string; cutoff: Date; limit: number }): Promise<number> {
  const rows = await prisma.replay.findMany({ where: { workspaceId, startedAt: { lt: cutoff }, status: { not: "running" } }, select: { id: true }, take: limit });
  if (!rows.length) return 0;
  return (await prisma.replay.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } })).count;
}
