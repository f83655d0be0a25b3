import { withWorkspace } from "@/lib/api/route";
import { getServer } from "@/lib/domains/servers/server";
import { listSessionsOfServer } from "@/lib/domains/sessions/server";

export const runtime = "nodejs";

// GET /api/v1/servers/:id/sessions – the server's sessions, newest first (at most 50)
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await getServer(principal, params.id);
  return { items: await listSessionsOfServer(principal, params.id) };
});
