import { withWorkspace } from "@/lib/api/route";
import { revokeShare } from "@/lib/domains/shares/server";

export const runtime = "nodejs";

// DELETE /api/v1/shares/:id – revoke a link (its creator, or an admin); the URL answers 410 after
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await revokeShare(principal, params.id);
});
