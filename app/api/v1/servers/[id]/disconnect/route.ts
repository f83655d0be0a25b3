import { withWorkspace } from "@/lib/api/route";
import { disconnect } from "@/lib/domains/servers/server";

export const runtime = "nodejs";

// POST /api/v1/servers/:id/disconnect – end the session (HTTP DELETE to the server)
export const POST = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await disconnect(principal, params.id);
});
