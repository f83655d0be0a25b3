import { Reply, withPublic } from "@/lib/api/route";
import { consentView } from "@/lib/identity/gateway-auth/server";

export const runtime = "nodejs";

// GET /api/v1/oauth/consent?client_id&resource&scope&redirect_uri – what the consent page shows the signed-in person (the session cookie) for an authorization request
export const GET = withPublic(async ({ request }) => {
  const view = await consentView({ headers: request.headers, query: new URL(request.url).searchParams });
  return new Reply(view, 200, { "cache-control": "no-store" });
});
