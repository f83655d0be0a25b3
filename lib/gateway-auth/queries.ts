import { prisma } from "@/lib/db/client";

/** A registered gateway client as the consent page shows it (self-asserted, untrusted). */
export function findClient({ clientId }: { clientId: string }) {
  return prisma.gatewayOAuthClient.findUnique({ where: { clientId }, select: { clientId: true, name: true, uri: true, disabled: true } });
}

export function findMemberRole({ workspaceId, userId }: { workspaceId: string; userId: string }) {
  return prisma.member.findUnique({ where: { workspaceId_userId: { workspaceId, userId } }, select: { role: true } });
}
