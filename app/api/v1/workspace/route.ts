import { parseBody, withWorkspace } from "@/lib/api/route";
import { DeleteWorkspaceSchema, UpdateWorkspaceSchema } from "@/lib/team/workspaces/schemas";
import { deleteWorkspace, getWorkspaceSettings, updateWorkspaceSettings } from "@/lib/team/workspaces/server";
import { ScimGroupRolesSchema } from "@/lib/team/scim/schemas";
import { getScimGroupRoles, setScimGroupRoles } from "@/lib/team/scim/server";

export const runtime = "nodejs";

// GET /api/v1/workspace – the current workspace's settings and counts
export const GET = withWorkspace(async ({ principal }) => ({ workspace: { ...(await getWorkspaceSettings(principal)), scimGroupRoles: await getScimGroupRoles(principal.workspaceId) } }));

// PATCH /api/v1/workspace – name, retention, public share links, redaction list, allowed networks (admin); scimGroupRoles (owner)
export const PATCH = withWorkspace(async ({ request, principal }) => {
  const { scimGroupRoles, ...settings } = await parseBody(request, UpdateWorkspaceSchema.extend({ scimGroupRoles: ScimGroupRolesSchema.optional() }));
  const mapping = scimGroupRoles === undefined ? await getScimGroupRoles(principal.workspaceId) : await setScimGroupRoles(principal, scimGroupRoles);
  return { workspace: { ...(await updateWorkspaceSettings(principal, settings)), scimGroupRoles: mapping } };
});

// DELETE /api/v1/workspace – delete the workspace and everything in it; body { confirm: "<its name>" } (owner)
export const DELETE = withWorkspace(async ({ request, principal }) => {
  const { confirm } = await parseBody(request, DeleteWorkspaceSchema);
  await deleteWorkspace(principal, confirm);
});
