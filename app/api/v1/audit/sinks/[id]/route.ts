import { parseBody, withWorkspace } from "@/lib/api/route";
import { UpdateSinkSchema } from "@/lib/core/audit/schemas";
import { deleteSink, getSink, updateSink } from "@/lib/core/audit/server";

export const runtime = "nodejs";

// GET /api/v1/audit/sinks/:id – one sink and its delivery state (owner/admin)
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ sink: await getSink(principal, params.id) }));

// PATCH /api/v1/audit/sinks/:id – url, secret (null removes it; left out keeps it), include, enabled (owner/admin)
export const PATCH = withWorkspace<{ id: string }>(async ({ request, principal, params }) => ({ sink: await updateSink(principal, params.id, await parseBody(request, UpdateSinkSchema)) }));

// DELETE /api/v1/audit/sinks/:id – remove a sink (owner/admin)
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await deleteSink(principal, params.id);
});
