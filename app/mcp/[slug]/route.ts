import { handleAggregateRequest } from "@/lib/gateway/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ slug: string }> };

// The gateway's aggregated endpoint: every server a workspace offers, behind one MCP endpoint
// with namespaced names (docs/gateway.md). It authenticates on its own, like the per-server one.
async function handle(request: Request, { params }: Context): Promise<Response> {
  const { slug } = await params;
  return handleAggregateRequest(request, slug);
}

export const GET = handle;
export const POST = handle;
export const DELETE = handle;
