import "server-only";
import { roleRank, type Principal, type Role } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { SwitchboardError } from "@/lib/core/errors";
import { provisionMember } from "@/lib/team/members/server";
import { SCIM_MAPPABLE_ROLES, type ScimMappableRole } from "./index";
import type { ScimGroupRoles } from "./schemas";
import * as q from "./queries";

/** The workspace's group → role mapping. */
export async function groupRoles(workspaceId: string): Promise<ScimGroupRoles> {
  const row = await q.findWorkspaceScim({ id: workspaceId });
  if (!row?.scimGroupRoles) return {};
  try {
    return JSON.parse(row.scimGroupRoles) as ScimGroupRoles;
  } catch {
    return {};
  }
}

/** The role of a person in no mapped group: the workspace's SSO default role (never owner), else member. */
export async function defaultRole(workspaceId: string): Promise<ScimMappableRole> {
  const role = (await q.findWorkspaceScim({ id: workspaceId }))?.ssoDefaultRole;
  return (SCIM_MAPPABLE_ROLES as readonly string[]).includes(role ?? "") ? (role as ScimMappableRole) : "member";
}

/** The highest role the mapping gives any of these groups, else the default. */
export async function roleFor(workspaceId: string, scimUserId: string): Promise<Role> {
  const [mapping, groups, fallback] = await Promise.all([groupRoles(workspaceId), q.listScimGroups({ workspaceId, limit: 10_000 }), defaultRole(workspaceId)]);
  let best: Role | null = null;
  for (const g of groups) {
    const mapped = mapping[g.displayName];
    if (!mapped || !(JSON.parse(g.members) as string[]).includes(scimUserId)) continue;
    if (best === null || roleRank(mapped) > roleRank(best)) best = mapped;
  }
  return best ?? fallback;
}

/** Gives each of these provisioned (active) users the role their groups map to now; owners stay owners. */
export async function applyRoles(principal: Principal, scimUserIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(scimUserIds)];
  if (!ids.length) return;
  for (const user of await q.listScimUsersByIds({ workspaceId: principal.workspaceId, ids })) {
    if (!user.active) continue;
    await provisionMember(principal, { userId: user.userId, email: user.userName, role: await roleFor(principal.workspaceId, user.id) });
  }
}

/** PATCH /api/v1/workspace `scimGroupRoles` (owners only): the mapping, re-applied at once to every grouped user. */
export async function setScimGroupRoles(principal: Principal, mapping: ScimGroupRoles | null): Promise<ScimGroupRoles> {
  if (principal.role !== "owner") throw new SwitchboardError("forbidden", "Only an owner can map SCIM groups to roles", { requiredRole: "owner", role: principal.role });
  const before = await groupRoles(principal.workspaceId);
  await q.setWorkspaceScimGroupRoles({ id: principal.workspaceId, scimGroupRoles: mapping && Object.keys(mapping).length ? JSON.stringify(mapping) : null });
  await audit(principal, { action: "workspace.scim_group_roles_changed", target: { type: "workspace", id: principal.workspaceId }, details: { from: before, to: mapping ?? {} } });
  const groups = await q.listScimGroups({ workspaceId: principal.workspaceId, limit: 10_000 });
  await applyRoles(principal, groups.flatMap((g) => JSON.parse(g.members) as string[]));
  return mapping ?? {};
}
