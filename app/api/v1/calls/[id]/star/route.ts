import { withWorkspace } from "@/lib/api/route";
import { setStar } from "@/lib/domains/reviews/server";

export const runtime = "nodejs";

// PUT /api/v1/calls/:id/star – star the call for the caller (idempotent)
export const PUT = withWorkspace<{ id: string }>(async ({ principal, params }) => setStar(principal, params.id, true));

// DELETE /api/v1/calls/:id/star – remove the caller's star (idempotent)
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => setStar(principal, params.id, false));
