import { handleGatewayRequest } from "@/lib/gateway/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ slug: string; server: string }> };

// The gateway: a workspace server as a Streamable HTTP MCP endpoint for other MCP hosts
// (docs/gateway.md). It authenticates on its own (a gateway-scoped API token or an OAuth grant).
async function handle(request: Request, { params }: Context): Promise<Response> {
  const { slug, server } = await params;
  return handleGatewayRequest(request, slug, server);
}

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
