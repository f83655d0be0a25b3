import "server-only";
import { scimPatch, type ScimPatchOperation, type ScimResource } from "scim-patch";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { findOrCreateUser } from "@/lib/identity/auth/server";
import { deprovisionMember, provisionMember } from "@/lib/team/members/server";
import { SCIM_ENTERPRISE_USER_SCHEMA, SCIM_USER_SCHEMA } from "./index";
import { ScimError, parseScim } from "./http";
import { listAnswer, matching, normalisedOps, paging, patchError, type ListParams } from "./listing";
import { applyRoles, roleFor } from "./roles";
import { ScimUserSchema, type ScimPatchInput, type ScimUserInput } from "./schemas";
import * as q from "./queries";

// The attributes a PATCH may touch: RFC 7643's User core and the enterprise extension.
const USER_PATHS = new Set(["id", "username", "externalid", "active", "name", "displayname", "nickname", "profileurl", "title", "usertype", "preferredlanguage", "locale", "timezone", "emails", "phonenumbers", "addresses", "ims", "photos", "roles", "entitlements", "x509certificates", SCIM_ENTERPRISE_USER_SCHEMA.toLowerCase()]);
const RESERVED = new Set(["schemas", "id", "meta", "userName", "externalId", "active", "groups", "password"]);
const MAX_ATTRIBUTES = 32 * 1024;

type Row = q.ScimUserRow;

/** The User resource as SCIM shows it. */
export async function userResource(row: Row, base: string): Promise<Record<string, unknown>> {
  const groups = (await q.listScimGroups({ workspaceId: row.workspaceId, limit: 10_000 })).filter((g) => (JSON.parse(g.members) as string[]).includes(row.id));
  const attributes = JSON.parse(row.attributes) as Record<string, unknown>;
  return {
    schemas: [SCIM_USER_SCHEMA, ...(attributes[SCIM_ENTERPRISE_USER_SCHEMA] ? [SCIM_ENTERPRISE_USER_SCHEMA] : [])],
    id: row.id,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    userName: row.userName,
    ...attributes,
    active: row.active,
    groups: groups.map((g) => ({ value: g.id, display: g.displayName, $ref: `${base}/Groups/${g.id}` })),
    meta: { resourceType: "User", created: row.createdAt.toISOString(), lastModified: row.updatedAt.toISOString(), location: `${base}/Users/${row.id}` },
  };
}

function attributesOf(input: ScimUserInput): string {
  const kept = Object.fromEntries(Object.entries(input).filter(([k, v]) => !RESERVED.has(k) && v !== undefined && v !== null));
  const json = JSON.stringify(kept);
  if (json.length > MAX_ATTRIBUTES) throw new ScimError(400, `The user's attributes are larger than ${MAX_ATTRIBUTES} characters`, "invalidValue");
  return json;
}

function emailOf(input: ScimUserInput): string {
  const emails = input.emails ?? [];
  const email = (emails.find((e) => e.primary === true) ?? emails[0])?.value ?? input.userName;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new ScimError(400, "The user needs an email address (emails, or a userName that is one)", "invalidValue");
  return email;
}

function displayNameOf(input: ScimUserInput): string {
  const n = input.name;
  return (input.displayName || n?.formatted || [n?.givenName, n?.familyName].filter(Boolean).join(" ") || input.userName).slice(0, 100);
}

async function requireUser(principal: Principal, id: string): Promise<Row> {
  const row = await q.findScimUser({ workspaceId: principal.workspaceId, id });
  if (!row) throw new ScimError(404, `User ${id} not found`);
  return row;
}

/** POST /scim/v2/Users – provisions a person (a new user, or the one with that email) and their membership. */
export async function createUser(principal: Principal, raw: unknown, base: string) {
  const input = parseScim(ScimUserSchema, raw);
  if (await q.findScimUserBy({ workspaceId: principal.workspaceId, userName: input.userName })) throw new ScimError(409, `A user with userName ${input.userName} exists`, "uniqueness");
  const email = emailOf(input);
  const user = await findOrCreateUser({ name: displayNameOf(input), email });
  if (await q.findScimUserBy({ workspaceId: principal.workspaceId, userId: user.id })) throw new ScimError(409, `The person with email ${email} is provisioned already`, "uniqueness");
  const row = await q.createScimUser({ workspaceId: principal.workspaceId, userId: user.id, userName: input.userName, externalId: input.externalId ?? null, active: input.active, attributes: attributesOf(input) });
  await audit(principal, { action: "scim.user_created", target: { type: "user", id: user.id, name: email }, details: { scimId: row.id, active: row.active, userCreated: user.created } });
  if (row.active) await provisionMember(principal, { userId: user.id, email, role: await roleFor(principal.workspaceId, row.id), keepRole: true });
  return { status: 201, body: await userResource(row, base), location: `${base}/Users/${row.id}` };
}

export async function getUser(principal: Principal, id: string, base: string) {
  return { body: await userResource(await requireUser(principal, id), base) };
}

/** GET /scim/v2/Users – filter, startIndex, count (a ListResponse). */
export async function listUsers(principal: Principal, params: ListParams, base: string) {
  const { ast, eqOn } = matching(params.filter);
  const rows = await q.listScimUsers({ workspaceId: principal.workspaceId, ...(eqOn?.attr === "username" ? { userName: eqOn.value } : {}), limit: 10_000 });
  const resources = await Promise.all(rows.map((r) => userResource(r, base)));
  return { body: listAnswer(paging(resources, ast, params)) };
}

/** PUT /scim/v2/Users/:id – replaces the user's attributes (active false deactivates). */
export async function replaceUser(principal: Principal, id: string, raw: unknown, base: string) {
  const row = await requireUser(principal, id);
  return { body: await userResource(await saveUser(principal, row, parseScim(ScimUserSchema, raw)), base) };
}

/** PATCH /scim/v2/Users/:id – RFC 7644 §3.5.2 operations (Okta's and Entra's spellings). */
export async function patchUser(principal: Principal, id: string, patch: ScimPatchInput, base: string) {
  const row = await requireUser(principal, id);
  const current = await userResource(row, base);
  const ops = normalisedOps(patch, USER_PATHS);
  let next: Record<string, unknown>;
  try {
    next = scimPatch(current as unknown as ScimResource, ops as ScimPatchOperation[]) as unknown as Record<string, unknown>;
  } catch (err) {
    throw patchError(err);
  }
  return { body: await userResource(await saveUser(principal, row, parseScim(ScimUserSchema, next)), base) };
}

async function saveUser(principal: Principal, row: Row, input: ScimUserInput): Promise<Row> {
  if (input.userName !== row.userName && (await q.findScimUserBy({ workspaceId: principal.workspaceId, userName: input.userName }))) {
    throw new ScimError(409, `A user with userName ${input.userName} exists`, "uniqueness");
  }
  const saved = await q.updateScimUser({ id: row.id, userName: input.userName, externalId: input.externalId ?? null, active: input.active, attributes: attributesOf(input) });
  if (row.active && !saved.active) await deactivate(principal, saved, "scim.user_deactivated");
  if (!row.active && saved.active) {
    await provisionMember(principal, { userId: saved.userId, email: saved.userName, role: await roleFor(principal.workspaceId, saved.id) });
    await audit(principal, { action: "scim.user_reactivated", target: { type: "user", id: saved.userId, name: saved.userName }, details: { scimId: saved.id } });
  }
  return saved;
}

/** The person loses this workspace at once: membership, API tokens, and (last workspace) browser sessions. Owners stay. */
async function deactivate(principal: Principal, row: Row, action: string): Promise<void> {
  const removed = await deprovisionMember(principal, { userId: row.userId, email: row.userName });
  await audit(principal, { action, target: { type: "user", id: row.userId, name: row.userName }, details: { scimId: row.id, ...(removed ? {} : { ownerKept: true }) } });
}

/** DELETE /scim/v2/Users/:id – deprovisions the person and forgets the SCIM record (the console user stays). */
export async function deleteUser(principal: Principal, id: string) {
  const row = await requireUser(principal, id);
  await deactivate(principal, row, "scim.user_deleted");
  await q.dropFromGroups({ workspaceId: principal.workspaceId, scimUserId: row.id });
  await q.deleteScimUser({ id: row.id });
  return { status: 204 };
}

export { applyRoles };
