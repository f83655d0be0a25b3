import { withWorkspace } from "@/lib/api/route";
import { listAgents } from "@/lib/domains/agents/server";

export const runtime = "nodejs";

// GET /api/v1/agents – the workspace's agents with status, last seen and servers
export const GET = withWorkspace(async ({ principal }) => ({ items: await listAgents(principal) }));
