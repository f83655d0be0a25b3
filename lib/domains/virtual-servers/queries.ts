import { prisma } from "@/lib/core/db/client";

// The only writer of virtual_server.

export function listVirtualServers({ workspaceId }: { workspaceId: string }) {
  return prisma.virtualServer.findMany({ where: { workspaceId }, orderBy: [{ name: "asc" }, { id: "asc" }] });
}

export function findVirtualServer({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.virtualServer.findFirst({ where: { workspaceId, id } });
}

export type VirtualServerRow = NonNullable<Awaited<ReturnType<typeof findVirtualServer>>>;

/** The virtual server a gateway path names: /mcp/<slug>/<name> (null when the workspace or the name is unknown). */
export async function findVirtualRoute({ slug, name }: { slug: string; name: string }) {
  const workspace = await prisma.workspace.findUnique({ where: { slug }, select: { id: true, slug: true } });
  if (!workspace) return null;
  const virtual = await prisma.virtualServer.findUnique({ where: { workspaceId_name: { workspaceId: workspace.id, name } } });
  return virtual ? { workspace, virtual } : null;
}

export function insertVirtualServer({ data }: { data: { workspaceId: string; name: string; tools: string } }) {
  return prisma.virtualServer.create({ data });
}

export function updateVirtualServer({ id, data }: { id: string; data: { name?: string; tools?: string } }) {
  return prisma.virtualServer.update({ where: { id }, data });
}

export function deleteVirtualServer({ id }: { id: string }) {
  return prisma.virtualServer.delete({ where: { id } });
}

/** The workspace's servers among `ids` (archived ones too), to check and flag a virtual server's tools. */
export function findServers({ workspaceId, ids }: { workspaceId: string; ids: string[] }) {
  return prisma.server.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true, name: true, archivedAt: true } });
}

/** The active server of that name, and whether it is offered at the gateway (its endpoint is the same path). */
export function findServerNamed({ workspaceId, name }: { workspaceId: string; name: string }) {
  return prisma.server.findFirst({ where: { workspaceId, name, archivedAt: null }, select: { id: true, name: true, gatewayExposure: { select: { enabled: true } } } });
}

/** Names of the workspace's active servers offered at the gateway. */
export async function offeredServerNames({ workspaceId }: { workspaceId: string }): Promise<string[]> {
  const rows = await prisma.server.findMany({ where: { workspaceId, archivedAt: null, gatewayExposure: { is: { enabled: true } } }, select: { name: true } });
  return rows.map((row) => row.name);
}

export async function findWorkspaceSlug({ workspaceId }: { workspaceId: string }): Promise<string> {
  const row = await prisma.workspace.findUnique({ where: { id: workspaceId }, select: { slug: true } });
  return row?.slug ?? "";
}
