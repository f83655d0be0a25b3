import { prisma } from "@/lib/db/client";

export function upsertIdentityToken({ userId, issuer, idToken, expiresAt }: { userId: string; issuer: string; idToken: string; expiresAt: Date | null }) {
  return prisma.identityToken.upsert({
    where: { userId_issuer: { userId, issuer } },
    create: { userId, issuer, idToken, expiresAt },
    update: { idToken, expiresAt },
  });
}

export function findIdentityToken({ userId, issuer }: { userId: string; issuer: string }) {
  return prisma.identityToken.findUnique({ where: { userId_issuer: { userId, issuer } }, select: { idToken: true, expiresAt: true } });
}

export function listIdentityTokens({ userId }: { userId: string }) {
  return prisma.identityToken.findMany({ where: { userId }, orderBy: { issuer: "asc" }, select: { issuer: true, expiresAt: true, updatedAt: true } });
}

export function deleteIdentityTokens({ userId, issuer }: { userId: string; issuer?: string }) {
  return prisma.identityToken.deleteMany({ where: { userId, ...(issuer ? { issuer } : {}) } });
}

/** The workspace SSO sign-ins join: by slug, else the oldest. */
export function findSsoWorkspace({ slug }: { slug: string | null }) {
  return prisma.workspace.findFirst({ where: slug ? { slug } : {}, orderBy: { createdAt: "asc" }, select: { id: true, name: true, ssoRequired: true, ssoDefaultRole: true } });
}

/** Makes the user a member with `role` unless they are one; true when they joined now. */
export async function joinWorkspace({ workspaceId, userId, role }: { workspaceId: string; userId: string; role: string }): Promise<boolean> {
  const existing = await prisma.member.findUnique({ where: { workspaceId_userId: { workspaceId, userId } }, select: { id: true } });
  if (existing) return false;
  try {
    await prisma.member.create({ data: { workspaceId, userId, role } });
    return true;
  } catch {
    return false; // joined meanwhile by a parallel sign-in
  }
}

export function markSsoIdentity({ userId, issuer, refreshToken }: { userId: string; issuer: string; refreshToken: string | null }) {
  return prisma.identityToken.update({ where: { userId_issuer: { userId, issuer } }, data: { viaSso: true, refreshToken, checkedAt: new Date() } });
}

export function findSsoIdentity({ userId }: { userId: string }) {
  return prisma.identityToken.findFirst({ where: { userId, viaSso: true }, select: { id: true, issuer: true, refreshToken: true, checkedAt: true, expiresAt: true } });
}

/** Claims the next re-check (one request does it; the others carry on): false when another took it. */
export async function claimSsoCheck({ id, checkedAt }: { id: string; checkedAt: Date | null }): Promise<boolean> {
  const { count } = await prisma.identityToken.updateMany({ where: { id, checkedAt }, data: { checkedAt: new Date() } });
  return count === 1;
}

export function saveRefreshedIdentity({ id, idToken, refreshToken, expiresAt }: { id: string; idToken?: string; refreshToken?: string; expiresAt?: Date | null }) {
  return prisma.identityToken.update({ where: { id }, data: { ...(idToken ? { idToken, expiresAt } : {}), ...(refreshToken ? { refreshToken } : {}), checkedAt: new Date() } });
}

/**
 * Ends every console session of the user (signed out or removed at the IdP). Their SSO identity
 * stays, ended (expired, no refresh token), so that a session still held in a browser's cookie
 * cache is refused too, until their next SSO sign-in replaces it.
 */
export async function endSsoSessions({ userId }: { userId: string }) {
  await prisma.$transaction([
    prisma.session.deleteMany({ where: { userId } }),
    prisma.identityToken.updateMany({ where: { userId, viaSso: true }, data: { refreshToken: null, expiresAt: new Date() } }),
  ]);
}

/** A workspace of the user's that requires SSO, where they are not its owner (passwords then refused), or null. */
export function requiresSsoFor({ userId }: { userId: string }) {
  return prisma.member.findFirst({ where: { userId, role: { not: "owner" }, workspace: { ssoRequired: true } }, select: { workspace: { select: { name: true } } } });
}

export function findWorkspaceSso({ id }: { id: string }) {
  return prisma.workspace.findUnique({ where: { id }, select: { id: true, slug: true, ssoRequired: true, ssoDefaultRole: true } });
}

export function updateWorkspaceSso({ id, ssoRequired, ssoDefaultRole }: { id: string; ssoRequired?: boolean; ssoDefaultRole?: string }) {
  return prisma.workspace.update({ where: { id }, data: { ssoRequired, ssoDefaultRole }, select: { id: true, slug: true, ssoRequired: true, ssoDefaultRole: true } });
}
