import { gatewayHandler } from "@/lib/gateway/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// The gateway: a workspace server as a Streamable HTTP MCP endpoint for other MCP hosts
// (docs/gateway.md). It authenticates on its own (a gateway-scoped API token or an OAuth grant).
export const GET = gatewayHandler;
export const POST = gatewayHandler;
export const DELETE = gatewayHandler;
