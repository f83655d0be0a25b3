import { withWorkspace } from "@/lib/api/route";
import { revokeToken } from "@/lib/team/workspaces/server";

export const runtime = "nodejs";

// DELETE /api/v1/tokens/:id – revoke a token at once
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await revokeToken(principal, params.id);
});
