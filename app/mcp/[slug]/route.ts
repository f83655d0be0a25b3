import { aggregateHandler } from "@/lib/gateway/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// The gateway's aggregated endpoint: every server a workspace offers, behind one MCP endpoint
// with namespaced names (docs/gateway.md). It authenticates on its own, like the per-server one.
export const GET = aggregateHandler;
export const POST = aggregateHandler;
export const DELETE = aggregateHandler;
