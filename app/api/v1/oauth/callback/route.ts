import { Reply, withPublic } from "@/lib/api/route";
import { callbackPage, completeAuthorization } from "@/lib/domains/server-oauth/server";

export const runtime = "nodejs";

// GET /api/v1/oauth/callback – the browser comes back from the authorization server; state is bound to the signed-in user
export const GET = withPublic(async ({ request }) => {
  const outcome = await completeAuthorization(request);
  if (outcome.ok) return Reply.raw(null, 303, { location: `/servers/${outcome.serverId}?oauth=signed-in` });
  return callbackPage(outcome);
});
