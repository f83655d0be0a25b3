import { withWorkspace } from "@/lib/api/route";
import { deleteView } from "@/lib/domains/reviews/server";

export const runtime = "nodejs";

// DELETE /api/v1/views/:id – delete a saved view (its creator, or an admin)
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await deleteView(principal, params.id);
});
