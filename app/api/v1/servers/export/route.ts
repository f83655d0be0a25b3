import { Reply, withWorkspace } from "@/lib/api/route";
import { exportServers } from "@/lib/domains/servers/server";

export const runtime = "nodejs";

// GET /api/v1/servers/export – the workspace's active servers as an mcpServers file (no secret values)
export const GET = withWorkspace(async ({ principal }) => {
  const config = await exportServers(principal);
  return Reply.raw(`${JSON.stringify(config, null, 2)}\n`, 200, {
    "content-type": "application/json; charset=utf-8",
    "content-disposition": 'attachment; filename="mcp-servers.json"',
    "cache-control": "no-store",
  });
});
