import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { CreateVirtualServerSchema } from "@/lib/domains/virtual-servers/schemas";
import { createVirtualServer, listVirtualServers } from "@/lib/domains/virtual-servers/server";

export const runtime = "nodejs";

// GET /api/v1/virtual-servers – the workspace's virtual servers (tools of several servers at /mcp/<slug>/<name>)
export const GET = withWorkspace(async ({ principal }) => ({ items: await listVirtualServers(principal) }));

// POST /api/v1/virtual-servers – compose one: { name, tools: [{ serverId, tool, as?, description? }] }
export const POST = withWorkspace(async ({ request, principal }) => {
  return new Reply({ virtualServer: await createVirtualServer(principal, await parseBody(request, CreateVirtualServerSchema)) }, 201);
});
