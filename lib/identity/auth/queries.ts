import { prisma } from "@/lib/core/db/client";

export function findMembership({ userId, workspaceId }: { userId: string; workspaceId?: string | null }) {
  return prisma.member.findFirst({ where: { userId, ...(workspaceId ? { workspaceId } : {}) }, orderBy: { createdAt: "asc" }, include: { workspace: { select: { ssoRequired: true } } } });
}

/** A token (revoked ones too) by the hash of its secret, with its owner's membership. */
export async function findTokenWithMember({ tokenHash }: { tokenHash: string }) {
  const row = await prisma.apiToken.findUnique({ where: { tokenHash }, include: { user: { select: { name: true } } } });
  if (!row) return null;
  const member = await prisma.member.findUnique({ where: { workspaceId_userId: { workspaceId: row.workspaceId, userId: row.userId } } });
  return { ...row, member };
}

export function touchToken({ id }: { id: string }) {
  return prisma.apiToken.update({ where: { id }, data: { lastUsedAt: new Date() } });
}

export function findUserByEmail({ email }: { email: string }) {
  return prisma.user.findUnique({ where: { email }, select: { id: true, name: true, email: true } });
}

/** The workspaces a user belongs to (sign-in events are recorded in each). */
export async function listWorkspaceIds({ userId }: { userId: string }): Promise<string[]> {
  const rows = await prisma.member.findMany({ where: { userId }, select: { workspaceId: true } });
  return rows.map((r) => r.workspaceId);
}

/** The workspace a gateway endpoint names and, for a server endpoint, the server (not archived); null when either is missing. */
export async function findGatewayTarget({ workspaceSlug, serverName }: { workspaceSlug: string; serverName: string | null }) {
  const workspace = await prisma.workspace.findUnique({ where: { slug: workspaceSlug }, select: { id: true, name: true, slug: true } });
  if (!workspace) return null;
  if (serverName === null) return { workspace, server: null };
  const server = await prisma.server.findFirst({ where: { workspaceId: workspace.id, name: serverName, archivedAt: null }, select: { id: true, name: true } });
  // A virtual server's endpoint has the same shape (lib/gateway/bridge/virtual.ts).
  const virtual = server ? null : await prisma.virtualServer.findUnique({ where: { workspaceId_name: { workspaceId: workspace.id, name: serverName } }, select: { id: true, name: true } });
  const found = server ?? virtual;
  return found ? { workspace, server: found } : null;
}

/** A registered gateway client's self-asserted name, for the audit log. */
export function findGatewayClientName({ clientId }: { clientId: string }) {
  return prisma.gatewayOAuthClient.findUnique({ where: { clientId }, select: { name: true } });
}

export function findUserName({ id }: { id: string }) {
  return prisma.user.findUnique({ where: { id }, select: { name: true } });
}

export async function sessionExists({ id }: { id: string }): Promise<boolean> {
  return (await prisma.session.count({ where: { id } })) > 0;
}

export function deleteSessions({ userId }: { userId: string }) {
  return prisma.session.deleteMany({ where: { userId } });
}
