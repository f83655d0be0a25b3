import { prisma } from "@/lib/core/db/client";

const SUMMARY = { id: true, takenAt: true, source: true, counts: true, hash: true } as const;
const NEWEST = [{ seq: "desc" }, { takenAt: "desc" }, { id: "desc" }] as const;

export function latestSnapshot({ serverId }: { serverId: string }) {
  return prisma.capabilitySnapshot.findFirst({ where: { serverId }, orderBy: [...NEWEST] });
}

/** Fails with a unique violation when another snapshot of the server took `seq` first. */
export function insertSnapshot(data: { workspaceId: string; serverId: string; seq: number; hash: string; source: string; counts: string; data: string; findings: string }) {
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

/** The latest snapshot of each other active server of the workspace (the scan's shadowing check). */
export function otherServersLatest({ workspaceId, serverId }: { workspaceId: string; serverId: string }) {
  return prisma.capabilitySnapshot.findMany({
    where: { workspaceId, serverId: { not: serverId }, server: { archivedAt: null } },
    orderBy: [{ serverId: "asc" }, ...NEWEST],
    distinct: ["serverId"],
    select: { data: true, server: { select: { name: true } } },
  });
}

/** A server's pinning and its latest snapshot's id: what the withheld cache is keyed by (a read of the server's row). */
export function pinState({ serverId }: { serverId: string }) {
  return prisma.server.findUnique({
    where: { id: serverId },
    select: { workspaceId: true, name: true, pinDefinitions: true, approvedSnapshotId: true, capabilitySnapshots: { orderBy: [...NEWEST], take: 1, select: { id: true } } },
  });
}

/** A snapshot's lists by id (the approved or the latest one of a pinned server). */
export function snapshotData({ serverId, id }: { serverId: string; id: string }) {
  return prisma.capabilitySnapshot.findFirst({ where: { id, serverId }, select: { id: true, data: true } });
}

/** Any snapshot of the workspace by id: approving another server's is refused by name. */
export function findWorkspaceSnapshot({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.capabilitySnapshot.findFirst({ where: { id, workspaceId }, select: { id: true, serverId: true } });
}
