import { withPublic } from "@/lib/api/route";
import { agentSelf, revokeSelf } from "@/lib/agents/server";

export const runtime = "nodejs";

// GET /api/v1/agents/self – the calling agent (agent token) and whether it is online
export const GET = withPublic(async ({ request }) => agentSelf(request));

// DELETE /api/v1/agents/self – the agent unpairs itself (its token stops working)
export const DELETE = withPublic(async ({ request }) => {
  await revokeSelf(request);
});
