import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { CreateWorkspaceSchema } from "@/lib/team/workspaces/schemas";
import { createWorkspace } from "@/lib/team/workspaces/server";

export const runtime = "nodejs";

// POST /api/v1/workspaces – create a workspace owned by the caller
export const POST = withWorkspace(async ({ request, principal }) => {
  const { name } = await parseBody(request, CreateWorkspaceSchema);
  return new Reply({ workspace: await createWorkspace(principal, name) }, 201);
});
