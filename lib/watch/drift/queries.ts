import { prisma } from "@/lib/core/db/client";

const SUMMARY = { id: true, takenAt: true, source: true, counts: true, hash: true } as const;

export function latestSnapshot({ serverId }: { serverId: string }) {
  return prisma.capabilitySnapshot.findFirst({ where: { serverId }, orderBy: [{ seq: "desc" }, { takenAt: "desc" }, { id: "desc" }] });
}

/** Fails with a unique violation when another snapshot of the server took `seq` first. */
export function insertSnapshot(data: { workspaceId: string; serverId: string; seq: number; hash: string; source: string; counts: string; data: string }) {
  return prisma.capabilitySnapshot.create({ data, select: SUMMARY });
}

/** A server's snapshots, newest first, with their lists (the timeline diffs each with the one before it). */
export function listSnapshots({ workspaceId, serverId, limit }: { workspaceId: string; serverId: string; limit: number }) {
  return prisma.capabilitySnapshot.findMany({ where: { workspaceId, serverId }, orderBy: [{ takenAt: "desc" }, { id: "desc" }], take: limit });
}

export function findSnapshot({ workspaceId, serverId, id }: { workspaceId: string; serverId: string; id: string }) {
  return prisma.capabilitySnapshot.findFirst({ where: { id, workspaceId, serverId } });
}

/** The snapshot taken just before `takenAt` (ties broken by id, as the timeline orders them). */
export function snapshotBefore({ serverId, takenAt, id }: { serverId: string; takenAt: Date; id: string }) {
  return prisma.capabilitySnapshot.findFirst({
    where: { serverId, OR: [{ takenAt: { lt: takenAt } }, { takenAt, id: { lt: id } }] },
    orderBy: [{ takenAt: "desc" }, { id: "desc" }],
  });
}

export function findWatch({ serverId }: { serverId: string }) {
  return prisma.capabilityWatch.findUnique({ where: { serverId } });
}

export function upsertWatch(data: { serverId: string; workspaceId: string; mail: string; webhooks: string; createdById: string }) {
  const { serverId, mail, webhooks } = data;
  return prisma.capabilityWatch.upsert({ where: { serverId }, create: data, update: { mail, webhooks } });
}

export function deleteWatch({ serverId }: { serverId: string }) {
  return prisma.capabilityWatch.deleteMany({ where: { serverId } });
}
