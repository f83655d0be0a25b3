import { parseBody, withWorkspace } from "@/lib/api/route";
import { DeleteWorkspaceSchema, UpdateWorkspaceSchema } from "@/lib/team/workspaces/schemas";
import { deleteWorkspace, getWorkspaceSettings, updateWorkspaceSettings } from "@/lib/team/workspaces/server";

export const runtime = "nodejs";

// GET /api/v1/workspace – the current workspace's settings and counts
export const GET = withWorkspace(async ({ principal }) => ({ workspace: await getWorkspaceSettings(principal) }));

// PATCH /api/v1/workspace – name, retention, public share links, redaction list, allowed networks (admin)
export const PATCH = withWorkspace(async ({ request, principal }) => {
  return { workspace: await updateWorkspaceSettings(principal, await parseBody(request, UpdateWorkspaceSchema)) };
});

// DELETE /api/v1/workspace – delete the workspace and everything in it; body { confirm: "<its name>" } (owner)
export const DELETE = withWorkspace(async ({ request, principal }) => {
  const { confirm } = await parseBody(request, DeleteWorkspaceSchema);
  await deleteWorkspace(principal, confirm);
});
