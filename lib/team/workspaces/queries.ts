import { prisma } from "@/lib/core/db/client";
import { forgetCache } from "@/lib/core/runtime";

export function countUsers() {
  return prisma.user.count();
}

export function findUser({ userId }: { userId: string }) {
  return prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, name: true, email: true, theme: true } });
}

export async function findUserTheme({ userId }: { userId: string }) {
  return (await prisma.user.findUnique({ where: { id: userId }, select: { theme: true } }))?.theme ?? null;
}

export function setUserTheme({ userId, theme }: { userId: string; theme: string }) {
  return prisma.user.update({ where: { id: userId }, data: { theme }, select: { theme: true } });
}

export function listMemberships({ userId }: { userId: string }) {
  return prisma.member.findMany({ where: { userId }, include: { workspace: true }, orderBy: { createdAt: "asc" } });
}

export async function createWorkspaceWithOwner({ name, userId }: { name: string; userId: string }) {
  const base = slugify(name);
  for (let attempt = 0; ; attempt++) {
    const slug = attempt === 0 ? base : `${base}-${attempt + 1}`;
    if (await prisma.workspace.findUnique({ where: { slug } })) continue;
    return prisma.workspace.create({
      data: { name, slug, members: { create: { userId, role: "owner" } } },
      select: { id: true, name: true, slug: true },
    });
  }
}

function slugify(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40) || "workspace";
}

export function listTokens({ workspaceId, userId }: { workspaceId: string; userId: string }) {
  return prisma.apiToken.findMany({ where: { workspaceId, userId, scope: { not: "scim" } }, orderBy: { createdAt: "desc" } });
}

export function createToken(data: { workspaceId: string; userId: string; name: string; prefix: string; tokenHash: string; scope?: string }) {
  return prisma.apiToken.create({ data });
}

/** Revokes one of the user's active tokens; returns its name, or null when there was none to revoke. */
export async function revokeToken({ workspaceId, userId, id }: { workspaceId: string; userId: string; id: string }) {
  const { count } = await prisma.apiToken.updateMany({
    where: { id, workspaceId, userId, revokedAt: null, scope: { not: "scim" } },
    data: { revokedAt: new Date() },
  });
  if (!count) return null;
  return prisma.apiToken.findUnique({ where: { id }, select: { name: true } });
}

export function findWorkspaceSettings({ id }: { id: string }) {
  return prisma.workspace.findUnique({
    where: { id },
    select: { id: true, name: true, slug: true, retentionDays: true, auditRetentionDays: true, legalHold: true, publicSharesEnabled: true, redactionKeys: true, allowedNetworks: true, createdAt: true },
  });
}

export async function countWorkspace({ id }: { id: string }) {
  const [members, servers, calls, pendingInvitations] = await Promise.all([
    prisma.member.count({ where: { workspaceId: id } }),
    prisma.server.count({ where: { workspaceId: id, archivedAt: null } }),
    prisma.call.count({ where: { workspaceId: id } }),
    prisma.invitation.count({ where: { workspaceId: id, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } } }),
  ]);
  return { members, servers, calls, pendingInvitations };
}

export function updateWorkspace({
  id,
  data,
}: {
  id: string;
  data: { name?: string; retentionDays?: number | null; auditRetentionDays?: number | null; legalHold?: boolean; publicSharesEnabled?: boolean; redactionKeys?: string | null; allowedNetworks?: string | null };
}) {
  return prisma.workspace.update({ where: { id }, data });
}

/** What must be stopped before a workspace's rows go: its servers' live sessions and its agents' sockets. */
export async function workspaceLiveParts({ id }: { id: string }) {
  const [servers, agents] = await Promise.all([
    prisma.server.findMany({ where: { workspaceId: id }, select: { id: true } }),
    prisma.agent.findMany({ where: { workspaceId: id, revokedAt: null }, select: { id: true } }),
  ]);
  return { serverIds: servers.map((s) => s.id), agentIds: agents.map((a) => a.id) };
}

/** Deletes a workspace; everything in it goes with it (foreign keys cascade). */
export async function deleteWorkspace({ id }: { id: string }) {
  const row = await prisma.workspace.delete({ where: { id } });
  await forgetCache("serverCache");
  return row;
}
