import { parseBody, withWorkspace } from "@/lib/api/route";
import { ApproveSnapshotSchema } from "@/lib/watch/drift/schemas";
import { approveSnapshot } from "@/lib/watch/drift/server";

export const runtime = "nodejs";

// POST /api/v1/servers/:id/capabilities/approve – { snapshotId }: a pinned server serves this snapshot's definitions
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const { snapshotId } = await parseBody(request, ApproveSnapshotSchema);
  return { pinning: await approveSnapshot(principal, params.id, snapshotId) };
});
