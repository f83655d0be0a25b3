import { instanceId } from "@/lib/core/instances";
import { prisma } from "@/lib/core/db/client";
import type { Prisma } from "@prisma/client";

const withServerName = { server: { select: { name: true } } } satisfies Prisma.InteractionInclude;

/** Records a server request; the row names this instance, whose connection waits for the answer. */
export function createInteraction({ data }: { data: Prisma.InteractionUncheckedCreateInput }) {
  return prisma.interaction.create({ data: { ...data, instanceId: instanceId() }, include: withServerName });
}

export function findInteraction({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.interaction.findFirst({ where: { workspaceId, id }, include: withServerName });
}

export function listInteractions({ workspaceId, status, serverId }: { workspaceId: string; status?: string; serverId?: string }) {
  return prisma.interaction.findMany({
    where: { workspaceId, ...(status ? { status } : {}), ...(serverId ? { serverId } : {}) },
    include: withServerName,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 100,
  });
}

/** Settles a pending interaction; returns false if it was no longer pending (someone else answered). */
export async function settleInteraction({ id, data }: { id: string; data: Prisma.InteractionUncheckedUpdateInput }) {
  const { count } = await prisma.interaction.updateMany({ where: { id, status: "pending" }, data });
  return count === 1;
}

export function markUrlCompleted({ serverId, elicitationId }: { serverId: string; elicitationId: string }) {
  return prisma.interaction.findMany({ where: { serverId, elicitationId, completedAt: null }, select: { id: true, workspaceId: true } }).then(async (rows) => {
    if (rows.length) await prisma.interaction.updateMany({ where: { id: { in: rows.map((r) => r.id) } }, data: { completedAt: new Date() } });
    return rows;
  });
}

export function findServerSettings({ id }: { id: string }) {
  return prisma.server.findUnique({ where: { id }, select: { roots: true, unattendedPolicy: true, unattendedWaitMs: true, kind: true } });
}

export type InteractionRow = NonNullable<Awaited<ReturnType<typeof findInteraction>>>;
