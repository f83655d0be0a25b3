import { callBodyLimit, parseBody, withWorkspace } from "@/lib/api/route";
import { GetPromptSchema } from "@/lib/domains/calls/schemas";
import { runCall } from "@/lib/domains/calls/server";
import { timingOf } from "@/lib/core/timing";

export const runtime = "nodejs";

// POST /api/v1/servers/:id/prompts/get – get a prompt; the recorded call is the answer
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const body = await parseBody(request, GetPromptSchema, { maxBytes: callBodyLimit() });
  const call = await runCall(principal, {
    serverId: params.id,
    method: "prompts/get",
    name: body.name,
    params: { name: body.name, arguments: body.arguments },
    timeoutMs: body.timeoutMs,
    requestId: body.requestId,
    rerunOfId: body.rerunOf,
    timing: timingOf(request),
  });
  return { call };
});
