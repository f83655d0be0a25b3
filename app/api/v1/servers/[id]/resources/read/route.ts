import { callBodyLimit, parseBody, withWorkspace } from "@/lib/api/route";
import { ReadResourceSchema } from "@/lib/domains/calls/schemas";
import { runCall } from "@/lib/domains/calls/server";
import { timingOf } from "@/lib/core/timing";

export const runtime = "nodejs";

// POST /api/v1/servers/:id/resources/read – read a resource; the recorded call is the answer
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const body = await parseBody(request, ReadResourceSchema, { maxBytes: callBodyLimit() });
  const call = await runCall(principal, {
    serverId: params.id,
    method: "resources/read",
    name: body.uri,
    params: { uri: body.uri },
    timeoutMs: body.timeoutMs,
    requestId: body.requestId,
    origin: body.origin ?? "user",
    rerunOfId: body.rerunOf,
    timing: timingOf(request),
  });
  return { call };
});
