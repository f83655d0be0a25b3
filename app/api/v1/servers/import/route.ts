import { callBodyLimit, parseBody, withWorkspace } from "@/lib/api/route";
import { ImportServersSchema } from "@/lib/domains/servers/schemas";
import { importServers } from "@/lib/domains/servers/server";

export const runtime = "nodejs";

// POST /api/v1/servers/import – add servers from an mcpServers JSON (HTTP now, stdio for the agent)
export const POST = withWorkspace(async ({ request, principal }) => {
  const { config } = await parseBody(request, ImportServersSchema, { maxBytes: callBodyLimit() });
  return importServers(principal, config);
});
