import { prisma } from "@/lib/core/db/client";

/** The active server a path names, with its exposure (null when the workspace or server is unknown). */
export async function findRoute({ slug, serverName }: { slug: string; serverName: string }) {
  const workspace = await prisma.workspace.findUnique({ where: { slug }, select: { id: true, slug: true } });
  if (!workspace) return null;
  const server = await prisma.server.findFirst({
    where: { workspaceId: workspace.id, name: serverName, archivedAt: null },
    select: { id: true, name: true, gatewayExposure: true },
  });
  return server ? { workspace, server } : null;
}

export function findExposure({ serverId }: { serverId: string }) {
  return prisma.gatewayExposure.findUnique({ where: { serverId } });
}

export function upsertExposure(data: { serverId: string; workspaceId: string; enabled: boolean; tools: string | null; readOnly: boolean; rateLimitPerMinute: number | null }) {
  const { serverId, workspaceId, ...fields } = data;
  return prisma.gatewayExposure.upsert({ where: { serverId }, create: { serverId, workspaceId, ...fields }, update: fields });
}

export function createConnection(data: {
  id: string;
  workspaceId: string;
  serverId: string;
  userId: string;
  tokenId: string | null;
  oauthClientId: string | null;
  clientName: string | null;
  clientVersion: string | null;
  protocolVersion: string | null;
  instanceId: string;
}) {
  return prisma.gatewayConnection.create({ data });
}

export function touchConnection({ id }: { id: string }) {
  return prisma.gatewayConnection.updateMany({ where: { id, endedAt: null }, data: { lastSeenAt: new Date() } });
}

export function endConnection({ id, reason }: { id: string; reason: string }) {
  return prisma.gatewayConnection.updateMany({ where: { id, endedAt: null }, data: { endedAt: new Date(), endReason: reason } });
}

export function findConnection({ id }: { id: string }) {
  return prisma.gatewayConnection.findUnique({ where: { id } });
}

/** A server's connected hosts, then the 50 that left most recently. */
export async function listConnections({ workspaceId, serverId }: { workspaceId: string; serverId: string }) {
  const [open, ended] = await Promise.all([
    prisma.gatewayConnection.findMany({ where: { workspaceId, serverId, endedAt: null }, orderBy: { connectedAt: "desc" }, take: 500 }),
    prisma.gatewayConnection.findMany({ where: { workspaceId, serverId, endedAt: { not: null } }, orderBy: { endedAt: "desc" }, take: 50 }),
  ]);
  const userIds = [...new Set([...open, ...ended].map((c) => c.userId))];
  const users = await prisma.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } });
  const names = new Map(users.map((u) => [u.id, u.name]));
  return [...open, ...ended].map((c) => ({ ...c, userName: names.get(c.userId) ?? null }));
}

/** A workspace's active servers that are offered (the aggregated endpoint), or null when the slug is unknown. */
export async function findExposedServers({ slug }: { slug: string }) {
  const workspace = await prisma.workspace.findUnique({ where: { slug }, select: { id: true, slug: true } });
  if (!workspace) return null;
  const servers = await prisma.server.findMany({
    where: { workspaceId: workspace.id, archivedAt: null, gatewayExposure: { is: { enabled: true } } },
    select: { id: true, name: true, gatewayExposure: true },
  });
  return { workspace, servers };
}

/**
 * What lib/core/instances needs of gateway connections when instances come and go (handed to it by
 * lib/start: nothing imports the gateway): a relayed session lives in its instance's memory and
 * ends with it.
 */
export const instanceConnections = {
  /** Open connections of instances not in `alive` (or of none) ended as `restart`. */
  async endOrphans(alive: string[]): Promise<void> {
    await prisma.gatewayConnection.updateMany({ where: { endedAt: null, OR: [{ instanceId: null }, { instanceId: { notIn: alive } }] }, data: { endedAt: new Date(), endReason: "restart" } });
  },
  /** This instance's open connections ended as `restart`, at a graceful stop. */
  async endOwn(id: string): Promise<void> {
    await prisma.gatewayConnection.updateMany({ where: { endedAt: null, instanceId: id }, data: { endedAt: new Date(), endReason: "restart" } });
  },
};
