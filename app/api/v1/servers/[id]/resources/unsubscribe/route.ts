import { parseBody, withWorkspace } from "@/lib/api/route";
import { ResourceSubscriptionSchema } from "@/lib/domains/resources/schemas";
import { unsubscribeResource } from "@/lib/domains/resources/server";

export const runtime = "nodejs";

// POST /api/v1/servers/:id/resources/unsubscribe – stop a resource's updates on the live session
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const body = await parseBody(request, ResourceSubscriptionSchema);
  return unsubscribeResource(principal, params.id, body.uri);
});
