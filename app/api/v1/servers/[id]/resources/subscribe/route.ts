import { parseBody, withWorkspace } from "@/lib/api/route";
import { ResourceSubscriptionSchema } from "@/lib/domains/resources/schemas";
import { subscribeResource } from "@/lib/domains/resources/server";

export const runtime = "nodejs";

// POST /api/v1/servers/:id/resources/subscribe – subscribe the live session to a resource's updates
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const body = await parseBody(request, ResourceSubscriptionSchema);
  return subscribeResource(principal, params.id, body.uri);
});
