import { prisma } from "@/lib/core/db/client";
import { SCIM_TOKEN_SCOPE } from "@/lib/core/access";

// SCIM tokens are API token rows with the "scim" scope (one token machinery: lib/identity/auth verifies them).
const tokenSelect = { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true } as const;

export function createScimToken(data: { workspaceId: string; userId: string; name: string; prefix: string; tokenHash: string }) {
  return prisma.apiToken.create({ data: { ...data, scope: SCIM_TOKEN_SCOPE }, select: tokenSelect });
}

export function listScimTokens({ workspaceId }: { workspaceId: string }) {
  return prisma.apiToken.findMany({ where: { workspaceId, scope: SCIM_TOKEN_SCOPE, revokedAt: null }, orderBy: { createdAt: "desc" }, select: tokenSelect });
}

export async function revokeScimToken({ workspaceId, id }: { workspaceId: string; id: string }) {
  const { count } = await prisma.apiToken.updateMany({ where: { id, workspaceId, scope: SCIM_TOKEN_SCOPE, revokedAt: null }, data: { revokedAt: new Date() } });
  return count > 0;
}

export function findWorkspaceScim({ id }: { id: string }) {
  return prisma.workspace.findUnique({ where: { id }, select: { scimGroupRoles: true, ssoDefaultRole: true } });
}

export function setWorkspaceScimGroupRoles({ id, scimGroupRoles }: { id: string; scimGroupRoles: string | null }) {
  return prisma.workspace.update({ where: { id }, data: { scimGroupRoles }, select: { id: true } });
}

export type ScimUserRow = Awaited<ReturnType<typeof prisma.scimUser.findUniqueOrThrow>>;
export type ScimGroupRow = Awaited<ReturnType<typeof prisma.scimGroup.findUniqueOrThrow>>;

export function findScimUser({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.scimUser.findFirst({ where: { id, workspaceId } });
}

export function findScimUserBy({ workspaceId, userName, userId }: { workspaceId: string; userName?: string; userId?: string }) {
  return prisma.scimUser.findFirst({ where: { workspaceId, ...(userName !== undefined ? { userName } : {}), ...(userId !== undefined ? { userId } : {}) } });
}

/** Every provisioned user of the workspace (filters other than `userName eq` are applied to these). */
export function listScimUsers({ workspaceId, userName, limit }: { workspaceId: string; userName?: string; limit: number }) {
  return prisma.scimUser.findMany({ where: { workspaceId, ...(userName !== undefined ? { userName } : {}) }, orderBy: { createdAt: "asc" }, take: limit });
}

export function listScimUsersByIds({ workspaceId, ids }: { workspaceId: string; ids: string[] }) {
  return prisma.scimUser.findMany({ where: { workspaceId, id: { in: ids } } });
}

export function createScimUser(data: { workspaceId: string; userId: string; userName: string; externalId: string | null; active: boolean; attributes: string }) {
  return prisma.scimUser.create({ data });
}

export function updateScimUser({ id, ...data }: { id: string; userName: string; externalId: string | null; active: boolean; attributes: string }) {
  return prisma.scimUser.update({ where: { id }, data });
}

export function deleteScimUser({ id }: { id: string }) {
  return prisma.scimUser.delete({ where: { id } });
}

export function findScimGroup({ workspaceId, id }: { workspaceId: string; id: string }) {
  return prisma.scimGroup.findFirst({ where: { id, workspaceId } });
}

export function findScimGroupByName({ workspaceId, displayName }: { workspaceId: string; displayName: string }) {
  return prisma.scimGroup.findFirst({ where: { workspaceId, displayName } });
}

export function listScimGroups({ workspaceId, displayName, limit }: { workspaceId: string; displayName?: string; limit: number }) {
  return prisma.scimGroup.findMany({ where: { workspaceId, ...(displayName !== undefined ? { displayName } : {}) }, orderBy: { createdAt: "asc" }, take: limit });
}

export function createScimGroup(data: { workspaceId: string; displayName: string; externalId: string | null; members: string }) {
  return prisma.scimGroup.create({ data });
}

export function updateScimGroup({ id, ...data }: { id: string; displayName: string; externalId: string | null; members: string }) {
  return prisma.scimGroup.update({ where: { id }, data });
}

export function deleteScimGroup({ id }: { id: string }) {
  return prisma.scimGroup.delete({ where: { id } });
}

/** Takes a deleted user out of every group of the workspace. */
export async function dropFromGroups({ workspaceId, scimUserId }: { workspaceId: string; scimUserId: string }) {
  const groups = await prisma.scimGroup.findMany({ where: { workspaceId, members: { contains: scimUserId } } });
  for (const g of groups) {
    const members = (JSON.parse(g.members) as string[]).filter((m) => m !== scimUserId);
    await prisma.scimGroup.update({ where: { id: g.id }, data: { members: JSON.stringify(members) } });
  }
}
