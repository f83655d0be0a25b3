import { callBodyLimit, parseBody, withWorkspace } from "@/lib/api/route";
import { timingOf } from "@/lib/core/timing";
import { CallToolSchema } from "@/lib/domains/calls/schemas";
import { runCall } from "@/lib/domains/calls/server";

export const runtime = "nodejs";

// POST /api/v1/servers/:id/tools/call – call a tool; the recorded call is the answer
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const body = await parseBody(request, CallToolSchema, { maxBytes: callBodyLimit() });
  const call = await runCall(principal, {
    serverId: params.id,
    method: "tools/call",
    name: body.name,
    params: { name: body.name, arguments: body.arguments },
    timeoutMs: body.timeoutMs,
    maxTotalTimeoutMs: body.maxTotalTimeoutMs,
    requestId: body.requestId,
    task: body.task,
    skipValidation: body.skipValidation,
    origin: body.origin,
    parentCallId: body.parentCallId,
    rerunOfId: body.rerunOf,
    timing: timingOf(request),
  });
  return { call };
});
