import { prisma, isUniqueViolation } from "@/lib/core/db/client";
import { Prisma } from "@prisma/client";
import { forgetCache } from "@/lib/core/runtime";

const withLatestSession = { sessions: { orderBy: { createdAt: "desc" }, take: 1 } } satisfies Prisma.ServerInclude;

/** Rows per delete statement when purging, so a server with a million calls never holds the lock for long. */

/** The active (not archived) servers. */
export function listServers({ workspaceId }: { workspaceId: string }) {
  return prisma.server.findMany({ where: { workspaceId, archivedAt: null }, include: withLatestSession, orderBy: { name: "asc" } });
}

/** Archived servers, most recently archived first, with how many calls each still holds. */
export function listArchivedServers({ workspaceId }: { workspaceId: string }) {
  return prisma.server.findMany({
    where: { workspaceId, archivedAt: { not: null } },
    include: { ...withLatestSession, _count: { select: { calls: true } } },
    orderBy: [{ archivedAt: "desc" }, { id: "asc" }],
  });
}

/** Any server of the workspace, archived or not (permalinks and history still need archived ones). */
export function findServer({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.server.findFirst({ where: { workspaceId, id }, include: withLatestSession });
}

/** The only query that reads encrypted header values. */
export function findServerWithSecrets({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.server.findFirst({ where: { workspaceId, id }, omit: { headersSecret: false, oauthClientSecret: false, idpClientSecret: false } });
}

/** A server with its secrets and its latest session, for reconnecting it when its agent comes back. */
export function findServerToReconnect({ id }: { id: string }) {
  return prisma.server.findUnique({ where: { id }, omit: { headersSecret: false, oauthClientSecret: false, idpClientSecret: false }, include: { sessions: { orderBy: { createdAt: "desc" }, take: 1 } } });
}

/** Names of the active servers (names are unique among those only). */
export function findServerNames({ workspaceId }: { workspaceId: string }) {
  return prisma.server.findMany({ where: { workspaceId, archivedAt: null }, select: { name: true } });
}

/** The workspace's active demo server, if it has one. */
export function findDemoServer({ workspaceId }: { workspaceId: string }) {
  return prisma.server.findFirst({ where: { workspaceId, archivedAt: null, kind: "demo" }, include: withLatestSession });
}

/** Creates a server; null when an active server of the workspace has the name already (a lost race). */
export async function createServer({ data }: { data: Prisma.ServerUncheckedCreateInput }) {
  try {
    return await prisma.server.create({ data, include: withLatestSession });
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

export async function updateServer({ workspaceId, id, data }: { workspaceId: string; id: string; data: Prisma.ServerUncheckedUpdateInput }) {
  const row = await prisma.server.update({ where: { id, workspaceId }, data, include: withLatestSession });
  await forgetCache("serverCache");
  return row;
}

/**
 * The approved snapshot of a pinned server (lib/watch/drift). `onlyIfUnset`: the first snapshot
 * taken once pinning was set, unless someone approved one meanwhile. Returns whether it was set.
 */
export async function setApprovedSnapshot({ workspaceId, id, snapshotId, onlyIfUnset = false }: { workspaceId: string; id: string; snapshotId: string; onlyIfUnset?: boolean }) {
  const { count } = await prisma.server.updateMany({ where: { id, workspaceId, ...(onlyIfUnset ? { approvedSnapshotId: null } : {}) }, data: { approvedSnapshotId: snapshotId } });
  if (count) await forgetCache("serverCache");
  return count > 0;
}

/** The id of a server's latest capability snapshot (pinning approves it when turned on). */
export async function latestSnapshotId({ serverId }: { serverId: string }) {
  const row = await prisma.capabilitySnapshot.findFirst({ where: { serverId }, orderBy: [{ seq: "desc" }, { takenAt: "desc" }, { id: "desc" }], select: { id: true } });
  return row?.id ?? null;
}

/** Archives active servers: by id, or every server of an agent. Returns the ids it archived. */
export async function archiveServers({ workspaceId, ids, agentId, by }: { workspaceId: string; ids?: string[]; agentId?: string; by: string | null }) {
  const where: Prisma.ServerWhereInput = { workspaceId, archivedAt: null, ...(ids ? { id: { in: ids } } : {}), ...(agentId ? { agentId } : {}) };
  const rows = await prisma.server.findMany({ where, select: { id: true, name: true } });
  if (rows.length) await prisma.server.updateMany({ where: { id: { in: rows.map((r) => r.id) }, archivedAt: null }, data: { archivedAt: new Date(), archivedBy: by } });
  if (rows.length) await forgetCache("serverCache");
  return rows;
}

/** Makes an archived server active again; null when the name is now held by an active server. */
export async function restoreServer({ workspaceId, id }: { workspaceId: string; id: string }) {
  try {
    const row = await prisma.server.update({ where: { id, workspaceId }, data: { archivedAt: null, archivedBy: null }, include: withLatestSession });
    await forgetCache("serverCache");
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

export function countServerCalls({ serverId }: { serverId: string }) {
  return prisma.call.count({ where: { serverId } });
}

/**
 * Deletes a server and everything it owns. Calls go first, through their writer (`deleteCalls`,
 * lib/domains/calls: their shares, notes, tags and stars by cascade); the server row's cascade then takes
 * sessions, logs, traffic, interactions.
 */
export async function purgeServer({ workspaceId, id, deleteCalls }: { workspaceId: string; id: string; deleteCalls: PurgeCalls }): Promise<number> {
  const deleted = await deleteCalls({ workspaceId, serverId: id });
  await prisma.server.deleteMany({ where: { workspaceId, id } });
  await forgetCache("serverCache");
  return deleted;
}

/** lib/domains/calls' deletion of a server's calls (`purgeServerCalls`), handed in by the route: lib/domains/calls depends on this domain. */
export type PurgeCalls = (where: { workspaceId: string; serverId: string }) => Promise<number>;

export type ServerRow = NonNullable<Awaited<ReturnType<typeof findServer>>>;
/** `actingUserId`: whose OAuth credential a per-member server uses for this work (lib/domains/sessions keys live connections by it). */
export type ServerSecretRow = NonNullable<Awaited<ReturnType<typeof findServerWithSecrets>>> & { actingUserId?: string | null };

/** Every workspace's active servers' ids and names (lib/core/metrics joins call figures, labelled by id, to names). */
export function listServerNames() {
  return prisma.server.findMany({ where: { archivedAt: null }, select: { id: true, name: true, workspaceId: true } });
}
