import { prisma } from "@/lib/core/db/client";

// A reader of capability_snapshot: lib/watch/drift writes it, and lib/domains may not import lib/watch.
const NEWEST = [{ seq: "desc" }, { takenAt: "desc" }, { id: "desc" }] as const;
const ROW = { id: true, takenAt: true, data: true } as const;

/** A server's snapshots with their lists, newest first. */
export function listSnapshots({ serverId, limit }: { serverId: string; limit: number }) {
  return prisma.capabilitySnapshot.findMany({ where: { serverId }, orderBy: [...NEWEST], take: limit, select: ROW });
}

export function findSnapshot({ serverId, id }: { serverId: string; id: string }) {
  return prisma.capabilitySnapshot.findFirst({ where: { id, serverId }, select: ROW });
}
