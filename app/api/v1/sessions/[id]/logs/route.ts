import { parseQuery, withWorkspace } from "@/lib/api/route";
import { ListLogsQuerySchema } from "@/lib/logs/schemas";
import { listSessionLogs } from "@/lib/logs/server";
import { requireSession } from "@/lib/sessions/server";

export const runtime = "nodejs";

// GET /api/v1/sessions/:id/logs – the session's log lines, newest first, by minimum level and search
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const query = parseQuery(request, ListLogsQuerySchema);
  const session = await requireSession(principal, params.id);
  return listSessionLogs(session.id, query);
});
