import { withWorkspace } from "@/lib/api/route";
import { getCall } from "@/lib/domains/calls/server";

export const runtime = "nodejs";

// GET /api/v1/calls/:id – one call in full (the permalink's data)
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ call: await getCall(principal, params.id) }));
