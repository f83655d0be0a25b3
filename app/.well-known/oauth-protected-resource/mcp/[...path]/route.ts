import { errorResponse } from "@/lib/api/route";
import { protectedResourceMetadata } from "@/lib/identity/gateway-auth/server";

export const runtime = "nodejs";

// GET /.well-known/oauth-protected-resource/mcp/:slug[/:server] – Protected Resource Metadata of a gateway endpoint (public)
export function GET(request: Request): Response {
  try {
    return Response.json(protectedResourceMetadata(request), { headers: { "cache-control": "public, max-age=3600", "access-control-allow-origin": "*" } });
  } catch (err) {
    return errorResponse(err);
  }
}
