import { parseQuery, withWorkspace } from "@/lib/api/route";
import { ListTasksQuerySchema } from "@/lib/domains/calls/schemas";
import { listTaskCalls } from "@/lib/domains/calls/server";

export const runtime = "nodejs";

// GET /api/v1/servers/:id/tasks – the server's task calls with their task state, newest first
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const { sessionId } = parseQuery(request, ListTasksQuerySchema);
  return { items: await listTaskCalls(principal, params.id, sessionId) };
});
