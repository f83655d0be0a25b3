import { withWorkspace } from "@/lib/api/route";
import { listConnectedClients } from "@/lib/gateway/server";

export const runtime = "nodejs";

// GET /api/v1/servers/:id/gateway/clients – MCP hosts connected through the gateway, and those that left recently
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ items: await listConnectedClients(principal, params.id) }));
