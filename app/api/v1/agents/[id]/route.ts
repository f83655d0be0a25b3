import { withWorkspace } from "@/lib/api/route";
import { getAgent, revokeAgent } from "@/lib/domains/agents/server";

export const runtime = "nodejs";

// GET /api/v1/agents/:id – one agent with its servers, their last exit and recent stderr
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ agent: await getAgent(principal, params.id) }));

// DELETE /api/v1/agents/:id – revoke (members: their own agents): the socket closes, its servers are archived
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await revokeAgent(principal, params.id);
});
