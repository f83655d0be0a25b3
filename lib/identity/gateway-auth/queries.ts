import { prisma } from "@/lib/core/db/client";

/** A registered gateway client as the consent page shows it (self-asserted, untrusted). */
export function findClient({ clientId }: { clientId: string }) {
  return prisma.gatewayOAuthClient.findUnique({ where: { clientId }, select: { clientId: true, name: true, uri: true, disabled: true } });
}

export function findMemberRole({ workspaceId, userId }: { workspaceId: string; userId: string }) {
  return prisma.member.findUnique({ where: { workspaceId_userId: { workspaceId, userId } }, select: { role: true } });
}

/** Ends a person's grant to a client: its refresh tokens revoked, its access tokens and consent deleted. */
export async function revokeGrants({ userId, clientId }: { userId: string; clientId: string }) {
  const now = new Date();
  await prisma.$transaction([
    prisma.gatewayOAuthRefreshToken.updateMany({ where: { userId, clientId, revoked: null }, data: { revoked: now } }),
    prisma.gatewayOAuthAccessToken.deleteMany({ where: { userId, clientId } }),
    prisma.gatewayOAuthConsent.deleteMany({ where: { userId, clientId } }),
  ]);
}
