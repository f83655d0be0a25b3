import { signInForAuthorization } from "@/lib/identity/gateway-auth/server";

export const runtime = "nodejs";

// GET /oauth/sign-in – a signed-out person authorizing a gateway client: to the sign-in page, and back to the authorization
export function GET(request: Request): Response {
  return new Response(null, { status: 303, headers: { location: signInForAuthorization(request), "cache-control": "no-store" } });
}
