import { parseBody, withWorkspace } from "@/lib/api/route";
import { CancelCallSchema } from "@/lib/domains/calls/schemas";
import { cancelCall } from "@/lib/domains/calls/server";

export const runtime = "nodejs";

// POST /api/v1/calls/cancel – cancel a running call (or its task) by the requestId its caller chose
export const POST = withWorkspace(async ({ request, principal }) => {
  const { requestId } = await parseBody(request, CancelCallSchema);
  return { cancelled: await cancelCall(principal, requestId) };
});
