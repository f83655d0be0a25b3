import { withPublic } from "@/lib/api/route";
import { agentSelf, revokeSelf } from "@/lib/domains/agents/server";
import { clientInfo } from "@/lib/identity/auth/server";

export const runtime = "nodejs";

// GET /api/v1/agents/self – the calling agent (agent token) and whether it is online
export const GET = withPublic(async ({ request }) => agentSelf(request));

// DELETE /api/v1/agents/self – the agent unpairs itself (its token stops working, its servers are archived)
export const DELETE = withPublic(async ({ request }) => {
  await revokeSelf(request, clientInfo(request));
});
