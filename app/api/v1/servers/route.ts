import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { CreateServerSchema } from "@/lib/servers";
import { createServer, listServers } from "@/lib/servers/server";

export const runtime = "nodejs";

// GET /api/v1/servers – the workspace's servers with their status (no secrets)
export const GET = withWorkspace(async ({ principal }) => ({ items: await listServers(principal) }));

// POST /api/v1/servers – add a remote server
export const POST = withWorkspace(async ({ request, principal }) => {
  const input = await parseBody(request, CreateServerSchema);
  return new Reply({ server: await createServer(principal, input) }, 201);
});
