import { parseBody, Reply, withPublic } from "@/lib/api/route";
import { PairAgentSchema } from "@/lib/domains/agents/schemas";
import { pairAgent } from "@/lib/domains/agents/server";
import { clientInfo } from "@/lib/identity/auth/server";

export const runtime = "nodejs";

// POST /api/v1/agents/pair – the agent spends a pairing code for its token (no user session)
export const POST = withPublic(async ({ request }) => {
  const input = await parseBody(request, PairAgentSchema);
  return new Reply(await pairAgent(input, clientInfo(request)), 201);
});
