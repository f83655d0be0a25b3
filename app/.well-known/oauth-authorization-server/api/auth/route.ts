import { authorizationServerMetadata } from "@/lib/identity/gateway-auth/server";

export const runtime = "nodejs";

// GET /.well-known/oauth-authorization-server/api/auth – the console's authorization server metadata (RFC 8414, path-aware form of its issuer)
export function GET(request: Request): Promise<Response> {
  return authorizationServerMetadata(request);
}
