import { parseBody, parseQuery, Reply, withWorkspace } from "@/lib/api/route";
import { CreateServerSchema, ListServersQuerySchema } from "@/lib/domains/servers/schemas";
import { createServer, listArchivedServers, listServers } from "@/lib/domains/servers/server";

export const runtime = "nodejs";

// GET /api/v1/servers – the workspace's active servers with their status (no secrets); ?archived=1 the archived ones with call counts
export const GET = withWorkspace(async ({ request, principal }) => {
  const { archived } = parseQuery(request, ListServersQuerySchema);
  return { items: archived === "1" || archived === "true" ? await listArchivedServers(principal) : await listServers(principal) };
});

// POST /api/v1/servers – add a remote server
export const POST = withWorkspace(async ({ request, principal }) => {
  const input = await parseBody(request, CreateServerSchema);
  return new Reply({ server: await createServer(principal, input) }, 201);
});
