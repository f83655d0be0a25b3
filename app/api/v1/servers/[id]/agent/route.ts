import { z } from "zod";
import { bindServerToAgent } from "@/lib/domains/agents/server";
import { parseBody, withWorkspace } from "@/lib/api/route";

export const runtime = "nodejs";

const BindSchema = z.object({ agentId: z.string().min(1).max(128).nullable() });

// PUT /api/v1/servers/:id/agent – bind an agent-run server to another agent, or release it (admin)
export const PUT = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const { agentId } = await parseBody(request, BindSchema);
  return { server: await bindServerToAgent(principal, params.id, agentId) };
});
