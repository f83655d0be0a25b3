import { databaseProvider, prisma } from "@/lib/core/db/client";

// Heartbeats are written and aged by the database's clock on PostgreSQL (instances on several
// hosts share it, theirs may differ). SQLite is one file on one host: that host's clock is the database's.
const postgres = databaseProvider === "postgresql";

/**
 * This instance's beat: its heartbeat now, and its row written again with its real host and pid
 * if it is gone (reaped while this process was paused or cut off from the database).
 */
export async function beat({ id, host, pid }: { id: string; host: string; pid: number }): Promise<void> {
  if (!postgres) {
    const now = new Date();
    await prisma.instance.upsert({ where: { id }, update: { heartbeatAt: now }, create: { id, host, pid, startedAt: now, heartbeatAt: now } });
    return;
  }
  // The columns are timestamp(3) holding UTC (as Prisma writes them).
  await prisma.$executeRaw`
    INSERT INTO "instance" ("id", "host", "pid", "started_at", "heartbeat_at")
    VALUES (${id}, ${host}, ${pid}, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
    ON CONFLICT ("id") DO UPDATE SET "heartbeat_at" = EXCLUDED."heartbeat_at"`;
}

export function deleteInstances({ ids }: { ids: string[] }) {
  return prisma.instance.deleteMany({ where: { id: { in: ids } } });
}

/** Every instance with the age of its last heartbeat, by the database's clock. */
export async function findInstances(): Promise<{ id: string; host: string; pid: number; ageMs: number }[]> {
  if (!postgres) {
    const rows = await prisma.instance.findMany({ orderBy: { startedAt: "asc" } });
    const now = Date.now();
    return rows.map((r) => ({ id: r.id, host: r.host, pid: r.pid, ageMs: now - r.heartbeatAt.getTime() }));
  }
  return prisma.$queryRaw<{ id: string; host: string; pid: number; ageMs: number }[]>`
    SELECT "id", "host", "pid", (EXTRACT(EPOCH FROM (now() AT TIME ZONE 'UTC') - "heartbeat_at") * 1000)::float8 AS "ageMs"
    FROM "instance" ORDER BY "started_at"`;
}
