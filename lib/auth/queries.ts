import { prisma } from "@/lib/db/client";

export function findMembership({ userId, workspaceId }: { userId: string; workspaceId?: string | null }) {
  return prisma.member.findFirst({ where: { userId, ...(workspaceId ? { workspaceId } : {}) }, orderBy: { createdAt: "asc" } });
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

export function touchMember({ id }: { id: string }) {
  return prisma.member.update({ where: { id }, data: { lastActiveAt: new Date() } });
}

export function findUserByEmail({ email }: { email: string }) {
  return prisma.user.findUnique({ where: { email }, select: { id: true, name: true, email: true } });
}

/** The workspaces a user belongs to (sign-in events are recorded in each). */
export async function listWorkspaceIds({ userId }: { userId: string }): Promise<string[]> {
  const rows = await prisma.member.findMany({ where: { userId }, select: { workspaceId: true } });
  return rows.map((r) => r.workspaceId);
}
