import { parseBody, Reply, withPublic } from "@/lib/api/route";
import { PairAgentSchema } from "@/lib/agents/schemas";
import { pairAgent } from "@/lib/agents/server";
import { clientInfo } from "@/lib/auth/server";

export const runtime = "nodejs";

// POST /api/v1/agents/pair – the agent spends a pairing code for its token (no user session)
export const POST = withPublic(async ({ request }) => {
  const input = await parseBody(request, PairAgentSchema);
  return new Reply(await pairAgent(input, clientInfo(request)), 201);
});
