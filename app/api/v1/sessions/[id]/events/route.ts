import { withWorkspace } from "@/lib/api/route";
import { eventStreamResponse } from "@/lib/core/events/server";
import { requireSession } from "@/lib/domains/sessions/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/v1/sessions/:id/events – the live events of one session's server (SSE; Last-Event-ID resumes)
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const session = await requireSession(principal, params.id);
  return eventStreamResponse({
    request,
    workspaceId: principal.workspaceId,
    // Events of the session itself, and server-wide ones (status, lists) of its server.
    filter: (event) =>
      event.type === "reset" ||
      ("sessionId" in event && typeof event.sessionId === "string" ? event.sessionId === session.id : "serverId" in event && event.serverId === session.serverId),
  });
});
