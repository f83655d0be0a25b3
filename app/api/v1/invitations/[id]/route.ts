import { withWorkspace } from "@/lib/api/route";
import { revokeInvitation } from "@/lib/team/members/server";

export const runtime = "nodejs";

// DELETE /api/v1/invitations/:id – revoke a pending invitation; its link answers 410 from now on
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await revokeInvitation(principal, params.id);
});
