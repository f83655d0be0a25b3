import "server-only";
import { roleAtLeast, type Role } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import type { Principal } from "@/lib/core/access";
import { clearTokenCache, endUserSessions } from "@/lib/identity/auth/server";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import type { MemberDto } from "./index";
import * as q from "./queries";

export { acceptInvitation, createInvitation, listInvitations, previewInvitation, revokeInvitation } from "./invitations";

type MemberRow = NonNullable<Awaited<ReturnType<typeof q.findMember>>>;

function toDto(row: MemberRow): MemberDto {
  return {
    id: row.user.id,
    name: row.user.name,
    email: row.user.email,
    role: row.role as Role,
    joinedAt: row.createdAt.toISOString(),
    lastActiveAt: row.lastActiveAt?.toISOString() ?? null,
  };
}

export async function listMembers(principal: Principal): Promise<MemberDto[]> {
  return (await q.listMembers({ workspaceId: principal.workspaceId })).map(toDto);
}

async function requireMember(principal: Principal, userId: string): Promise<MemberRow> {
  const member = await q.findMember({ workspaceId: principal.workspaceId, userId });
  if (!member) throw notFound("Member");
  return member;
}

/** Admins manage members below owner; only owners touch owners or make new ones. */
function assertMayManage(principal: Principal, target: MemberRow, newRole?: Role): void {
  if (roleAtLeast(principal.role, "owner")) return;
  if (target.role === "owner") throw new SwitchboardError("forbidden", "Only an owner can change or remove an owner", { requiredRole: "owner" });
  if (newRole === "owner") throw new SwitchboardError("forbidden", "Only an owner can make someone an owner", { requiredRole: "owner" });
}

function lastOwner(who: string): SwitchboardError {
  return new SwitchboardError("conflict", `${who} the workspace's last owner; make another member an owner first (or transfer ownership)`);
}

/** PATCH /members/:userId – a new role; the token cache forgets the old one at once. */
export async function updateMemberRole(principal: Principal, userId: string, role: Role): Promise<MemberDto> {
  const target = await requireMember(principal, userId);
  assertMayManage(principal, target, role);
  if (target.role === role) return toDto(target);
  const outcome = await q.changeRole({ workspaceId: principal.workspaceId, userId, role });
  if (outcome === "not_found") throw notFound("Member");
  if (outcome === "last_owner") throw lastOwner(userId === principal.userId ? "You are" : `${target.user.name} is`);
  await clearTokenCache();
  await audit(principal, { action: "member.role_changed", target: { type: "user", id: userId, name: target.user.email }, details: { from: target.role, to: role } });
  return toDto({ ...target, role });
}

/**
 * Removes a member: their API tokens for this workspace are revoked and forgotten by the cache,
 * and their browser session fails the membership check on its next request.
 */
export async function removeMember(principal: Principal, userId: string): Promise<void> {
  const target = await requireMember(principal, userId);
  assertMayManage(principal, target);
  await remove(principal, target);
}

/** POST /members/leave – anyone may leave, except the last owner (a read-only token cannot: the gate refuses its writes). */
export async function leaveWorkspace(principal: Principal): Promise<void> {
  await remove(principal, await requireMember(principal, principal.userId));
}

async function remove(principal: Principal, target: MemberRow): Promise<void> {
  const userId = target.user.id;
  const self = userId === principal.userId;
  const { outcome, tokensRevoked } = await q.removeMember({ workspaceId: principal.workspaceId, userId });
  if (outcome === "not_found") throw notFound("Member");
  if (outcome === "last_owner") throw lastOwner(self ? "You are" : `${target.user.name} is`);
  await clearTokenCache();
  await audit(principal, { action: self ? "member.left" : "member.removed", target: { type: "user", id: userId, name: target.user.email }, details: { role: target.role, tokensRevoked } });
}

/** POST /members/transfer – the target becomes an owner, the caller an admin. */
export async function transferOwnership(principal: Principal, userId: string): Promise<{ owner: MemberDto; previousOwner: MemberDto }> {
  if (userId === principal.userId) throw new SwitchboardError("bad_request", "Pick another member to transfer ownership to");
  const target = await requireMember(principal, userId);
  const outcome = await q.transferOwnership({ workspaceId: principal.workspaceId, fromUserId: principal.userId, toUserId: userId });
  if (outcome === "not_found") throw notFound("Member");
  if (outcome === "not_owner") throw new SwitchboardError("forbidden", "Only an owner can transfer ownership", { requiredRole: "owner" });
  await clearTokenCache();
  await audit(principal, { action: "member.ownership_transferred", target: { type: "user", id: userId, name: target.user.email }, details: { from: principal.userId, previousRole: target.role } });
  const [owner, previousOwner] = await Promise.all([requireMember(principal, userId), requireMember(principal, principal.userId)]);
  return { owner: toDto(owner), previousOwner: toDto(previousOwner) };
}

/**
 * SCIM (lib/team/scim): joins the person with `role`, or gives a membership that role; an owner is
 * never changed. `keepRole`: an existing membership keeps its role (a user linked, not regrouped).
 */
export async function provisionMember(principal: Principal, input: { userId: string; email: string; role: Role; keepRole?: boolean }): Promise<Role> {
  const existing = input.keepRole ? await q.findMember({ workspaceId: principal.workspaceId, userId: input.userId }) : null;
  if (existing) return existing.role as Role;
  const { before, after } = await q.provisionMembership({ workspaceId: principal.workspaceId, userId: input.userId, role: input.role });
  if (before === after) return after as Role;
  await clearTokenCache();
  const target = { type: "user", id: input.userId, name: input.email };
  await audit(principal, before === null ? { action: "member.provisioned", target, details: { role: after, via: "scim" } } : { action: "member.role_changed", target, details: { from: before, to: after, via: "scim" } });
  return after as Role;
}

/**
 * SCIM deactivation: the membership goes and the person's API tokens here are revoked, at once; so
 * do their browser sessions when this was their last workspace. An owner stays (false).
 */
export async function deprovisionMember(principal: Principal, input: { userId: string; email: string }): Promise<boolean> {
  const target = await q.findMember({ workspaceId: principal.workspaceId, userId: input.userId });
  if (!target) return true;
  if (target.role === "owner") return false;
  const { outcome, tokensRevoked } = await q.removeMember({ workspaceId: principal.workspaceId, userId: input.userId });
  if (outcome !== "done") return outcome === "not_found";
  const sessionsEnded = (await q.countMemberships({ userId: input.userId })) === 0 ? await endUserSessions({ userId: input.userId }) : 0;
  await clearTokenCache();
  await audit(principal, { action: "member.deprovisioned", target: { type: "user", id: input.userId, name: input.email }, details: { role: target.role, tokensRevoked, sessionsEnded, via: "scim" } });
  return true;
}
