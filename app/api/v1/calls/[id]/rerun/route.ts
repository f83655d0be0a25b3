import { withWorkspace } from "@/lib/api/route";
import { timingOf } from "@/lib/core/timing";
import { rerunCall } from "@/lib/domains/calls/server";

export const runtime = "nodejs";

// POST /api/v1/calls/:id/rerun – run the same request again as a new, linked call
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => ({ call: await rerunCall(principal, params.id, timingOf(request)) }));
