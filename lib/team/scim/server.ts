import "server-only";
import { ScimPatchSchema } from "./schemas";
import { parseScim, scimRoute, type ScimContext } from "./http";
import { listParams } from "./listing";
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser } from "./users";
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup, replaceGroup } from "./groups";
import { resourceTypes, schemas, serviceProviderConfig } from "./discovery";

export { createScimToken, listScimTokens, revokeScimToken } from "./tokens";
export { setScimGroupRoles, groupRoles as getScimGroupRoles } from "./roles";

// Resource locations name the console as the request reached it.
const baseOf = (ctx: ScimContext) => `${ctx.url.origin}/scim/v2`;
const id = (ctx: ScimContext) => ctx.params.id ?? "";

/** The /scim/v2 route handlers (app/scim/v2/**), each behind the workspace's SCIM token. */
export const scimHandlers = {
  listUsers: scimRoute((ctx) => listUsers(ctx.principal, listParams(ctx.url), baseOf(ctx))),
  createUser: scimRoute(async (ctx) => createUser(ctx.principal, await ctx.json(), baseOf(ctx))),
  getUser: scimRoute((ctx) => getUser(ctx.principal, id(ctx), baseOf(ctx))),
  replaceUser: scimRoute(async (ctx) => replaceUser(ctx.principal, id(ctx), await ctx.json(), baseOf(ctx))),
  patchUser: scimRoute(async (ctx) => patchUser(ctx.principal, id(ctx), parseScim(ScimPatchSchema, await ctx.json()), baseOf(ctx))),
  deleteUser: scimRoute((ctx) => deleteUser(ctx.principal, id(ctx))),
  listGroups: scimRoute((ctx) => listGroups(ctx.principal, listParams(ctx.url), baseOf(ctx))),
  createGroup: scimRoute(async (ctx) => createGroup(ctx.principal, await ctx.json(), baseOf(ctx))),
  getGroup: scimRoute((ctx) => getGroup(ctx.principal, id(ctx), baseOf(ctx), listParams(ctx.url))),
  replaceGroup: scimRoute(async (ctx) => replaceGroup(ctx.principal, id(ctx), await ctx.json(), baseOf(ctx))),
  patchGroup: scimRoute(async (ctx) => patchGroup(ctx.principal, id(ctx), parseScim(ScimPatchSchema, await ctx.json()), baseOf(ctx))),
  deleteGroup: scimRoute((ctx) => deleteGroup(ctx.principal, id(ctx))),
  serviceProviderConfig: scimRoute(async (ctx) => ({ body: serviceProviderConfig(baseOf(ctx)) })),
  resourceTypes: scimRoute(async (ctx) => ({ body: resourceTypes(baseOf(ctx)) })),
  schemas: scimRoute(async (ctx) => ({ body: schemas(baseOf(ctx)) })),
};
