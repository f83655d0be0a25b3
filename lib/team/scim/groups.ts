import "server-only";
import { scimPatch, type ScimPatchOperation, type ScimResource } from "scim-patch";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { SCIM_GROUP_SCHEMA } from "./index";
import { ScimError, parseScim } from "./http";
import { listAnswer, matching, normalisedOps, paging, patchError, type ListParams } from "./listing";
import { applyRoles } from "./roles";
import { ScimGroupSchema, type ScimGroupInput, type ScimPatchInput } from "./schemas";
import * as q from "./queries";

// "id" too: Okta renames with `{ op: "replace", value: { id, displayName } }` (the id itself never changes).
const GROUP_PATHS = new Set(["id", "displayname", "externalid", "members"]);

type Row = q.ScimGroupRow;
const membersOf = (row: Row) => JSON.parse(row.members) as string[];

/** The Group resource as SCIM shows it. */
export async function groupResource(row: Row, base: string, { withMembers = true } = {}): Promise<Record<string, unknown>> {
  const users = withMembers ? await q.listScimUsersByIds({ workspaceId: row.workspaceId, ids: membersOf(row) }) : [];
  return {
    schemas: [SCIM_GROUP_SCHEMA],
    id: row.id,
    displayName: row.displayName,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    ...(withMembers ? { members: users.map((u) => ({ value: u.id, display: u.userName, $ref: `${base}/Users/${u.id}` })) } : {}),
    meta: { resourceType: "Group", created: row.createdAt.toISOString(), lastModified: row.updatedAt.toISOString(), location: `${base}/Groups/${row.id}` },
  };
}

async function requireGroup(principal: Principal, id: string): Promise<Row> {
  const row = await q.findScimGroup({ workspaceId: principal.workspaceId, id });
  if (!row) throw new ScimError(404, `Group ${id} not found`);
  return row;
}

// Members are this workspace's provisioned users: anything else (another workspace's id) is refused.
async function memberIds(principal: Principal, input: ScimGroupInput): Promise<string[]> {
  const ids = [...new Set((input.members ?? []).map((m) => m.value))];
  const found = new Set((await q.listScimUsersByIds({ workspaceId: principal.workspaceId, ids })).map((u) => u.id));
  const unknown = ids.find((id) => !found.has(id));
  if (unknown) throw new ScimError(400, `No user ${unknown.slice(0, 100)} in this workspace`, "invalidValue");
  return ids;
}

async function assertNameFree(principal: Principal, displayName: string, id?: string) {
  const other = await q.findScimGroupByName({ workspaceId: principal.workspaceId, displayName });
  if (other && other.id !== id) throw new ScimError(409, `A group named ${displayName} exists`, "uniqueness");
}

/** POST /scim/v2/Groups */
export async function createGroup(principal: Principal, raw: unknown, base: string) {
  const input = parseScim(ScimGroupSchema, raw);
  await assertNameFree(principal, input.displayName);
  const members = await memberIds(principal, input);
  const row = await q.createScimGroup({ workspaceId: principal.workspaceId, displayName: input.displayName, externalId: input.externalId ?? null, members: JSON.stringify(members) });
  await audit(principal, { action: "scim.group_created", target: { type: "scim_group", id: row.id, name: row.displayName }, details: { members: members.length } });
  await applyRoles(principal, members);
  return { status: 201, body: await groupResource(row, base), location: `${base}/Groups/${row.id}` };
}

export async function getGroup(principal: Principal, id: string, base: string, params: Pick<ListParams, "excludedAttributes">) {
  return { body: await groupResource(await requireGroup(principal, id), base, { withMembers: !params.excludedAttributes.includes("members") }) };
}

/** GET /scim/v2/Groups – filter (Okta and Entra ask `displayName eq "…"`), startIndex, count. */
export async function listGroups(principal: Principal, params: ListParams, base: string) {
  const { ast, eqOn } = matching(params.filter);
  const rows = await q.listScimGroups({ workspaceId: principal.workspaceId, ...(eqOn?.attr === "displayname" ? { displayName: eqOn.value } : {}), limit: 10_000 });
  const withMembers = !params.excludedAttributes.includes("members");
  const resources = await Promise.all(rows.map((r) => groupResource(r, base, { withMembers })));
  return { body: listAnswer(paging(resources, ast, params)) };
}

/** PUT /scim/v2/Groups/:id */
export async function replaceGroup(principal: Principal, id: string, raw: unknown, base: string) {
  const row = await requireGroup(principal, id);
  return { body: await groupResource(await saveGroup(principal, row, parseScim(ScimGroupSchema, raw)), base) };
}

/** PATCH /scim/v2/Groups/:id – rename, add and remove members (`members[value eq "…"]` included). */
export async function patchGroup(principal: Principal, id: string, patch: ScimPatchInput, base: string) {
  const row = await requireGroup(principal, id);
  const current = await groupResource(row, base);
  const ops = normalisedOps(patch, GROUP_PATHS).flatMap(byMemberFilter);
  let next: Record<string, unknown>;
  try {
    next = scimPatch(current as unknown as ScimResource, ops as ScimPatchOperation[]) as unknown as Record<string, unknown>;
  } catch (err) {
    throw patchError(err);
  }
  return { body: await groupResource(await saveGroup(principal, row, parseScim(ScimGroupSchema, next)), base) };
}

// Okta removes members as `{ op: "remove", path: "members", value: [{ value }] }`: one filtered remove per member.
function byMemberFilter<O extends { op: string; path?: string; value?: unknown }>(op: O): O[] {
  if (op.op !== "remove" || op.path?.toLowerCase() !== "members" || !Array.isArray(op.value)) return [op];
  return op.value.map((m: { value?: unknown }) => ({ op: "remove", path: `members[value eq ${JSON.stringify(String(m?.value ?? ""))}]` }) as unknown as O);
}

async function saveGroup(principal: Principal, row: Row, input: ScimGroupInput): Promise<Row> {
  await assertNameFree(principal, input.displayName, row.id);
  const before = membersOf(row);
  const members = await memberIds(principal, input);
  const saved = await q.updateScimGroup({ id: row.id, displayName: input.displayName, externalId: input.externalId ?? null, members: JSON.stringify(members) });
  const added = members.filter((m) => !before.includes(m));
  const removed = before.filter((m) => !members.includes(m));
  const renamed = saved.displayName !== row.displayName;
  await audit(principal, { action: "scim.group_updated", target: { type: "scim_group", id: row.id, name: saved.displayName }, details: { added: added.length, removed: removed.length, ...(renamed ? { renamedFrom: row.displayName } : {}) } });
  // A rename can change every member's mapped role; otherwise only the added and removed ones'.
  await applyRoles(principal, renamed ? [...before, ...members] : [...added, ...removed]);
  return saved;
}

/** DELETE /scim/v2/Groups/:id – its former members get the roles their other groups map to. */
export async function deleteGroup(principal: Principal, id: string) {
  const row = await requireGroup(principal, id);
  await q.deleteScimGroup({ id: row.id });
  await audit(principal, { action: "scim.group_deleted", target: { type: "scim_group", id: row.id, name: row.displayName } });
  await applyRoles(principal, membersOf(row));
  return { status: 204 };
}
