import { callBodyLimit, parseBody, withWorkspace } from "@/lib/api/route";
import { RespondInteractionSchema } from "@/lib/domains/interactions/schemas";
import { respondInteraction } from "@/lib/domains/interactions/server";

export const runtime = "nodejs";

// POST /api/v1/interactions/:id/respond – a person answers: accept/decline/cancel (elicitation), reply/decline (sampling)
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const input = await parseBody(request, RespondInteractionSchema, { maxBytes: callBodyLimit() });
  return { interaction: await respondInteraction(principal, params.id, input) };
});
