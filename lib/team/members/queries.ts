import { prisma } from "@/lib/core/db/client";
import { piece } from "@/lib/core/runtime";

type Tx = Parameters<Parameters<typeof prisma.$transaction>[0]>[0];

const memberInclude = { user: { select: { id: true, name: true, email: true } } } as const;

export function listMembers({ workspaceId }: { workspaceId: string }) {
  return prisma.member.findMany({ where: { workspaceId }, include: memberInclude, orderBy: { createdAt: "asc" } });
}

export function findMember({ workspaceId, userId }: { workspaceId: string; userId: string }) {
  return prisma.member.findUnique({ where: { workspaceId_userId: { workspaceId, userId } }, include: memberInclude });
}

function otherOwners(tx: Tx, { workspaceId, userId }: { workspaceId: string; userId: string }) {
  return tx.member.count({ where: { workspaceId, role: "owner", userId: { not: userId } } });
}

export type GuardedOutcome = "done" | "not_found" | "last_owner";

/**
 * Changes a member's role, refusing to demote the workspace's last owner. The check and the
 * write share one transaction, so two concurrent demotions cannot leave the workspace ownerless.
 */
export function changeRole({ workspaceId, userId, role }: { workspaceId: string; userId: string; role: string }): Promise<GuardedOutcome> {
  return prisma.$transaction(async (tx) => {
    const member = await tx.member.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } });
    if (!member) return "not_found";
    if (member.role === "owner" && role !== "owner" && (await otherOwners(tx, { workspaceId, userId })) === 0) return "last_owner";
    await tx.member.update({ where: { id: member.id }, data: { role } });
    return "done";
  });
}

/** Removes a membership and revokes that person's API tokens for the workspace, keeping an owner. */
export function removeMember({ workspaceId, userId }: { workspaceId: string; userId: string }): Promise<{ outcome: GuardedOutcome; tokensRevoked: number }> {
  return prisma.$transaction(async (tx) => {
    const member = await tx.member.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } });
    if (!member) return { outcome: "not_found" as const, tokensRevoked: 0 };
    if (member.role === "owner" && (await otherOwners(tx, { workspaceId, userId })) === 0) return { outcome: "last_owner" as const, tokensRevoked: 0 };
    await tx.member.delete({ where: { id: member.id } });
    const { count } = await tx.apiToken.updateMany({ where: { workspaceId, userId, revokedAt: null }, data: { revokedAt: new Date() } });
    return { outcome: "done" as const, tokensRevoked: count };
  });
}

/** The target becomes an owner and the caller (an owner) an admin, together or not at all. */
export function transferOwnership({ workspaceId, fromUserId, toUserId }: { workspaceId: string; fromUserId: string; toUserId: string }): Promise<GuardedOutcome | "not_owner"> {
  return prisma.$transaction(async (tx) => {
    const from = await tx.member.findUnique({ where: { workspaceId_userId: { workspaceId, userId: fromUserId } } });
    if (from?.role !== "owner") return "not_owner";
    const to = await tx.member.findUnique({ where: { workspaceId_userId: { workspaceId, userId: toUserId } } });
    if (!to) return "not_found";
    await tx.member.update({ where: { id: to.id }, data: { role: "owner" } });
    await tx.member.update({ where: { id: from.id }, data: { role: "admin" } });
    return "done";
  });
}

export function findUserByEmail({ email }: { email: string }) {
  return prisma.user.findUnique({ where: { email }, select: { id: true, name: true, email: true } });
}

export function findUserName({ id }: { id: string }) {
  return prisma.user.findUnique({ where: { id }, select: { name: true } });
}

export function findWorkspace({ id }: { id: string }) {
  return prisma.workspace.findUnique({ where: { id }, select: { id: true, name: true, slug: true } });
}

export function deleteUser({ id }: { id: string }) {
  return prisma.user.delete({ where: { id } });
}

const invitationSelect = {
  id: true,
  workspaceId: true,
  email: true,
  role: true,
  tokenSecret: true,
  invitedBy: true,
  createdAt: true,
  expiresAt: true,
  acceptedAt: true,
  revokedAt: true,
} as const;

/** Creates an invitation; an earlier pending one for the same address is revoked (the new link replaces it). */
export function createInvitation(data: { workspaceId: string; email: string; role: string; tokenHash: string; tokenSecret: string; invitedBy: string; expiresAt: Date }) {
  return prisma.$transaction(async (tx) => {
    const replaced = await tx.invitation.updateMany({
      where: { workspaceId: data.workspaceId, email: data.email, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
      data: { revokedAt: new Date() },
    });
    const invitation = await tx.invitation.create({ data, select: invitationSelect });
    return { invitation, replaced: replaced.count };
  });
}

export function listPendingInvitations({ workspaceId }: { workspaceId: string }) {
  return prisma.invitation.findMany({
    where: { workspaceId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    select: invitationSelect,
    orderBy: { createdAt: "desc" },
  });
}

export function findInvitationByHash({ tokenHash }: { tokenHash: string }) {
  return prisma.invitation.findUnique({
    where: { tokenHash },
    select: { ...invitationSelect, workspace: { select: { id: true, name: true, slug: true } } },
  });
}

export function usersNamed({ ids }: { ids: string[] }) {
  return prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
}

/** Revokes a pending invitation; returns it, or null when there is no pending one with that id. */
export async function revokeInvitation({ workspaceId, id }: { workspaceId: string; id: string }) {
  const { count } = await prisma.invitation.updateMany({ where: { id, workspaceId, acceptedAt: null, revokedAt: null }, data: { revokedAt: new Date() } });
  return count > 0 ? prisma.invitation.findUnique({ where: { id }, select: { id: true, email: true, role: true } }) : null;
}

/**
 * Spends an invitation and adds the user to its workspace in one transaction. "gone" when it was
 * used, revoked or expired meanwhile (a link works once, even under concurrent attempts).
 */
export function acceptInvitation({ id, workspaceId, userId, role }: { id: string; workspaceId: string; userId: string; role: string }): Promise<"done" | "gone" | "member"> {
  return prisma.$transaction(async (tx) => {
    if (await tx.member.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } })) return "member";
    const spent = await tx.invitation.updateMany({
      where: { id, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
      data: { acceptedAt: new Date(), acceptedBy: userId },
    });
    if (spent.count !== 1) return "gone";
    await tx.member.create({ data: { workspaceId, userId, role } });
    return "done";
  });
}

/** Makes the user a member with `role` unless they are one (an SSO sign-in); true when they joined now. */
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

/** A member's last activity, for the members page. */
export function touchMember({ id }: { id: string }) {
  return prisma.member.update({ where: { id }, data: { lastActiveAt: new Date() } });
}

/**
 * Hands this domain's writes to the domains below it, which cannot import it (lib/team/members uses
 * lib/identity/auth, which uses lib/identity/sso): lib/identity/auth's last activity and an SSO sign-in's joining read them
 * from the runtime. Called by lib/start.
 */
export function installMemberWrites(): void {
  piece("memberWrites", () => ({ join: joinWorkspace, touch: touchMember }));
}

/** Joins a person to the workspace with a role, or sets the role of a membership that is not an owner's (SCIM). */
export function provisionMembership({ workspaceId, userId, role }: { workspaceId: string; userId: string; role: string }): Promise<{ before: string | null; after: string }> {
  return prisma.$transaction(async (tx) => {
    const member = await tx.member.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } });
    if (!member) {
      await tx.member.create({ data: { workspaceId, userId, role } });
      return { before: null, after: role };
    }
    if (member.role === "owner" || member.role === role) return { before: member.role, after: member.role };
    await tx.member.update({ where: { id: member.id }, data: { role } });
    return { before: member.role, after: role };
  });
}

export function countMemberships({ userId }: { userId: string }) {
  return prisma.member.count({ where: { userId } });
}
