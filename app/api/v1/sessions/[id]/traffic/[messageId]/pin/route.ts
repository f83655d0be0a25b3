import { withWorkspace } from "@/lib/api/route";
import { requireSession } from "@/lib/domains/sessions/server";
import { MessageIdSchema } from "@/lib/domains/traffic/schemas";
import { setPin } from "@/lib/domains/traffic/server";

export const runtime = "nodejs";

// PUT /api/v1/sessions/:id/traffic/:messageId/pin – pin the message to the top of the caller's traffic panel (idempotent)
export const PUT = withWorkspace<{ id: string; messageId: string }>(async ({ principal, params }) => {
  const session = await requireSession(principal, params.id);
  return setPin({ userId: principal.userId, sessionId: session.id, messageId: MessageIdSchema.parse(params.messageId), pinned: true });
});

// DELETE /api/v1/sessions/:id/traffic/:messageId/pin – unpin it (idempotent)
export const DELETE = withWorkspace<{ id: string; messageId: string }>(async ({ principal, params }) => {
  const session = await requireSession(principal, params.id);
  return setPin({ userId: principal.userId, sessionId: session.id, messageId: MessageIdSchema.parse(params.messageId), pinned: false });
});
