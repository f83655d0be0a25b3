import { parseBody, withWorkspace } from "@/lib/api/route";
import { CompleteSchema } from "@/lib/domains/servers/schemas";
import { completeArgument } from "@/lib/domains/servers/server";

export const runtime = "nodejs";

// POST /api/v1/servers/:id/complete – argument suggestions (completion/complete) for a prompt or resource template
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const body = await parseBody(request, CompleteSchema);
  return { completion: await completeArgument(principal, params.id, body) };
});
