import { withWorkspace } from "@/lib/api/route";
import { cancelTaskCall } from "@/lib/domains/calls/server";

export const runtime = "nodejs";

// POST /api/v1/calls/:id/task/cancel – send tasks/cancel for a task call whose task still runs
export const POST = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ call: await cancelTaskCall(principal, params.id) }));
