import { withWorkspace } from "@/lib/api/route";
import { requireSession } from "@/lib/domains/sessions/server";
import { listPinnedTraffic } from "@/lib/domains/traffic/server";

export const runtime = "nodejs";

// GET /api/v1/sessions/:id/traffic/pins – the caller's pinned messages of the session, in the order pinned
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) =>
  listPinnedTraffic({ userId: principal.userId, sessionId: (await requireSession(principal, params.id)).id }),
);
