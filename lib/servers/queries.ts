import { prisma } from "@/lib/db/client";
import type { Prisma } from "@prisma/client";

const withLatestSession = { sessions: { orderBy: { createdAt: "desc" }, take: 1 } } satisfies Prisma.ServerInclude;

export function listServers({ workspaceId }: { workspaceId: string }) {
  return prisma.server.findMany({ where: { workspaceId }, include: withLatestSession, orderBy: { name: "asc" } });
}

export function findServer({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.server.findFirst({ where: { workspaceId, id }, include: withLatestSession });
}

/** The only query that reads encrypted header values. */
export function findServerWithSecrets({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.server.findFirst({ where: { workspaceId, id }, omit: { headersSecret: false } });
}

export function findServerNames({ workspaceId }: { workspaceId: string }) {
  return prisma.server.findMany({ where: { workspaceId }, select: { name: true } });
}

export function createServer({ data }: { data: Prisma.ServerUncheckedCreateInput }) {
  return prisma.server.create({ data, include: withLatestSession });
}

export function updateServer({ workspaceId, id, data }: { workspaceId: string; id: string; data: Prisma.ServerUncheckedUpdateInput }) {
  return prisma.server.update({ where: { id, workspaceId }, data, include: withLatestSession });
}

export async function deleteServer({ workspaceId, id }: { workspaceId: string; id: string }) {
  const { count } = await prisma.server.deleteMany({ where: { workspaceId, id } });
  return count > 0;
}

export type ServerRow = NonNullable<Awaited<ReturnType<typeof findServer>>>;
export type ServerSecretRow = NonNullable<Awaited<ReturnType<typeof findServerWithSecrets>>>;
