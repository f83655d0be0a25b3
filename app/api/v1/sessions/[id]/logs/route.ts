import { parseQuery, withWorkspace } from "@/lib/api/route";
import { ListLogsQuerySchema } from "@/lib/domains/logs/schemas";
import { listSessionLogs } from "@/lib/domains/logs/server";
import { requireSession } from "@/lib/domains/sessions/server";

export const runtime = "nodejs";

// GET /api/v1/sessions/:id/logs – the session's log lines, newest first, by minimum level and search
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const query = parseQuery(request, ListLogsQuerySchema);
  const session = await requireSession(principal, params.id);
  return listSessionLogs(session.id, query);
});
