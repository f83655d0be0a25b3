import { withWorkspace } from "@/lib/api/route";
import { disconnectClient } from "@/lib/gateway/server";

export const runtime = "nodejs";

// DELETE /api/v1/servers/:id/gateway/clients/:clientId – end a connected host's session
export const DELETE = withWorkspace<{ id: string; clientId: string }>(async ({ principal, params }) => {
  await disconnectClient(principal, params.id, params.clientId);
});
