import { withWorkspace } from "@/lib/api/route";
import { revokeScimToken } from "@/lib/team/scim/server";

export const runtime = "nodejs";

// DELETE /api/v1/workspace/scim-tokens/:id – revoke a SCIM token at once (owner)
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await revokeScimToken(principal, params.id);
});
