import { prisma } from "@/lib/db/client";

export function countUsers() {
  return prisma.user.count();
}

export function findUser({ userId }: { userId: string }) {
  return prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, name: true, email: true } });
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
  return prisma.apiToken.findMany({ where: { workspaceId, userId }, orderBy: { createdAt: "desc" } });
}

export function createToken(data: { workspaceId: string; userId: string; name: string; prefix: string; tokenHash: string; scope?: string }) {
  return prisma.apiToken.create({ data });
}

/** Revokes one of the user's active tokens; returns its name, or null when there was none to revoke. */
export async function revokeToken({ workspaceId, userId, id }: { workspaceId: string; userId: string; id: string }) {
  const { count } = await prisma.apiToken.updateMany({
    where: { id, workspaceId, userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (!count) return null;
  return prisma.apiToken.findUnique({ where: { id }, select: { name: true } });
}
