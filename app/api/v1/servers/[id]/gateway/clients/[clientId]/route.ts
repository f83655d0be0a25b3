import { parseQuery, withWorkspace } from "@/lib/api/route";
import { DisconnectQuerySchema } from "@/lib/gateway/schemas";
import { disconnectClient } from "@/lib/gateway/server";

export const runtime = "nodejs";

// DELETE /api/v1/servers/:id/gateway/clients/:clientId[?revoke=true] – end a connected host's session (and revoke its OAuth grant)
export const DELETE = withWorkspace<{ id: string; clientId: string }>(async ({ request, principal, params }) => {
  const { revoke } = parseQuery(request, DisconnectQuerySchema);
  await disconnectClient(principal, params.id, params.clientId, { revoke: revoke === "true" });
});
