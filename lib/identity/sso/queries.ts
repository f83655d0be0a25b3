import { prisma } from "@/lib/core/db/client";

export function upsertIdentityToken({ userId, issuer, idToken, expiresAt }: { userId: string; issuer: string; idToken: string; expiresAt: Date | null }) {
  return prisma.identityToken.upsert({
    where: { userId_issuer: { userId, issuer } },
    create: { userId, issuer, idToken, expiresAt },
    update: { idToken, expiresAt },
  });
}

export function findIdentityToken({ userId, issuer }: { userId: string; issuer: string }) {
  return prisma.identityToken.findUnique({ where: { userId_issuer: { userId, issuer } }, select: { idToken: true, expiresAt: true, viaSso: true } });
}

export function listIdentityTokens({ userId }: { userId: string }) {
  return prisma.identityToken.findMany({ where: { userId, idToken: { not: "" } }, orderBy: { issuer: "asc" }, select: { issuer: true, expiresAt: true, updatedAt: true } });
}

/** The (encrypted) ID tokens of the user's OIDC sign-ins to the console (not those handed over through the API). */
export function listSsoIdTokens({ userId }: { userId: string }) {
  return prisma.identityToken.findMany({ where: { userId, viaSso: true, idToken: { not: "" } }, select: { idToken: true } });
}

export function deleteIdentityTokens({ userId, issuer, viaSso }: { userId: string; issuer?: string; viaSso?: boolean }) {
  return prisma.identityToken.deleteMany({ where: { userId, ...(issuer ? { issuer } : {}), ...(viaSso === undefined ? {} : { viaSso }) } });
}

/** Empties and expires the person's SSO sign-ins and ends their console sessions; how many sign-ins. */
export async function forgetSsoSignIns({ userId }: { userId: string }): Promise<number> {
  const [, { count }] = await prisma.$transaction([
    prisma.session.deleteMany({ where: { userId } }),
    prisma.identityToken.updateMany({ where: { userId, viaSso: true }, data: { idToken: "", refreshToken: null, expiresAt: new Date() } }),
  ]);
  return count;
}

/** The workspace SSO sign-ins join: by slug, else the oldest. */
export function findSsoWorkspace({ slug }: { slug: string | null }) {
  return prisma.workspace.findFirst({ where: slug ? { slug } : {}, orderBy: { createdAt: "asc" }, select: { id: true, name: true, ssoRequired: true, ssoDefaultRole: true } });
}

export function markSsoIdentity({ userId, issuer, refreshToken }: { userId: string; issuer: string; refreshToken: string | null }) {
  return prisma.identityToken.update({ where: { userId_issuer: { userId, issuer } }, data: { viaSso: true, refreshToken, checkedAt: new Date() } });
}

/**
 * A SAML sign-in: an SSO identity with no token (an empty idToken: SAML yields no ID token for
 * enterprise-managed servers) and no refresh token, ending at expiresAt.
 */
export function markSamlSignIn({ userId, issuer, expiresAt }: { userId: string; issuer: string; expiresAt: Date }) {
  const data = { idToken: "", expiresAt, viaSso: true, refreshToken: null, checkedAt: new Date() };
  return prisma.identityToken.upsert({ where: { userId_issuer: { userId, issuer } }, create: { userId, issuer, ...data }, update: data });
}

/** The user's SSO identity from their latest SSO sign-in. */
export function findSsoIdentity({ userId }: { userId: string }) {
  return prisma.identityToken.findFirst({ where: { userId, viaSso: true }, orderBy: { updatedAt: "desc" }, select: { id: true, issuer: true, refreshToken: true, checkedAt: true, expiresAt: true } });
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

// Identity providers a workspace owner registered (@better-auth/sso's own table; organizationId is the workspace).
const providerSelect = { id: true, providerId: true, issuer: true, domain: true, domainVerified: true, oidcConfig: true, organizationId: true, createdAt: true } as const;
export type SsoProviderRow = { id: string; providerId: string; issuer: string; domain: string; domainVerified: boolean | null; oidcConfig: string | null; organizationId: string | null; createdAt: Date };

export function findWorkspaceProvider({ workspaceId }: { workspaceId: string }) {
  return prisma.ssoProvider.findFirst({ where: { organizationId: workspaceId }, select: providerSelect });
}

export function findVerifiedProviderByDomain({ domain }: { domain: string }) {
  return prisma.ssoProvider.findFirst({ where: { domain, domainVerified: true }, select: providerSelect });
}

export function findProviderByProviderId({ providerId }: { providerId: string }) {
  return prisma.ssoProvider.findUnique({ where: { providerId }, select: { id: true } });
}

export function findProviderByIssuer({ issuer }: { issuer: string }) {
  return prisma.ssoProvider.findFirst({ where: { issuer, domainVerified: true }, select: providerSelect });
}

export function listVerifiedProviders() {
  return prisma.ssoProvider.findMany({ where: { domainVerified: true, organizationId: { not: null } }, orderBy: { domain: "asc" }, select: providerSelect });
}

export function createWorkspaceProvider(data: { id: string; providerId: string; issuer: string; domain: string; workspaceId: string; userId: string; oidcConfig: string }) {
  const { workspaceId, ...rest } = data;
  return prisma.ssoProvider.create({ data: { ...rest, organizationId: workspaceId, domainVerified: false }, select: providerSelect });
}

/** Marks the claim verified unless another claim of the domain was verified first (then null: first to verify wins). */
export function markProviderVerified({ id, domain }: { id: string; domain: string }) {
  return prisma.$transaction(async (tx) => {
    if (await tx.ssoProvider.findFirst({ where: { domain, domainVerified: true, id: { not: id } }, select: { id: true } })) return null;
    return tx.ssoProvider.update({ where: { id }, data: { domainVerified: true }, select: providerSelect });
  });
}

export async function deleteWorkspaceProvider({ id, workspaceId, keepRequired }: { id: string; workspaceId: string; keepRequired: boolean }) {
  await prisma.$transaction([
    prisma.ssoProvider.delete({ where: { id } }),
    // Without an IdP, requiring SSO would lock the members out.
    ...(keepRequired ? [] : [prisma.workspace.update({ where: { id: workspaceId }, data: { ssoRequired: false } })]),
  ]);
}

export function findWorkspaceById({ id }: { id: string }) {
  return prisma.workspace.findUnique({ where: { id }, select: { id: true, name: true, ssoRequired: true, ssoDefaultRole: true } });
}

/** A workspace owner's provider by its providerId (null for the operator's, which live in the environment). */
export function findOwnerProvider({ providerId }: { providerId: string }) {
  return prisma.ssoProvider.findFirst({ where: { providerId, organizationId: { not: null } }, select: providerSelect });
}

export function findUserEmail({ id }: { id: string }) {
  return prisma.user.findUnique({ where: { id }, select: { email: true } });
}

/**
 * Requiring SSO takes effect at once: every console session of the workspace's members (not its
 * owners, who keep their password) ends, and their API tokens in it are revoked.
 */
export async function cutMemberPasswordAccess({ workspaceId }: { workspaceId: string }): Promise<{ sessions: number; tokens: number }> {
  const userIds = (await prisma.member.findMany({ where: { workspaceId, role: { not: "owner" } }, select: { userId: true } })).map((m) => m.userId);
  if (!userIds.length) return { sessions: 0, tokens: 0 };
  const [sessions, tokens] = await prisma.$transaction([
    prisma.session.deleteMany({ where: { userId: { in: userIds } } }),
    prisma.apiToken.updateMany({ where: { workspaceId, userId: { in: userIds }, revokedAt: null }, data: { revokedAt: new Date() } }),
  ]);
  return { sessions: sessions.count, tokens: tokens.count };
}

/** The workspace's members other than owners, oldest first, each with whether they ever signed in with SSO. */
export async function listMembersBesideOwners({ workspaceId }: { workspaceId: string }) {
  const rows = await prisma.member.findMany({ where: { workspaceId, role: { not: "owner" } }, orderBy: { createdAt: "asc" }, select: { role: true, user: { select: { id: true, name: true, email: true } } } });
  const tokens = await prisma.identityToken.findMany({ where: { userId: { in: rows.map((r) => r.user.id) }, viaSso: true }, select: { userId: true } });
  const viaSso = new Set(tokens.map((t) => t.userId));
  return rows.map((r) => ({ userId: r.user.id, name: r.user.name, email: r.user.email, role: r.role, viaSso: viaSso.has(r.user.id) }));
}

/** Whether the user ever signed in with SSO (their current identity is checked by ssoSessionStands). */
export async function hasSsoIdentity({ userId }: { userId: string }): Promise<boolean> {
  return (await prisma.identityToken.count({ where: { userId, viaSso: true } })) > 0;
}
