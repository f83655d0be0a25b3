import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { CreatePairingSchema } from "@/lib/domains/agents/schemas";
import { createPairing } from "@/lib/domains/agents/server";

export const runtime = "nodejs";

// POST /api/v1/agents/pairings – a one-time pairing code (10 minutes) and the command to run
export const POST = withWorkspace(async ({ request, principal }) => {
  const input = await parseBody(request, CreatePairingSchema);
  return new Reply({ pairing: await createPairing(principal, input, request) }, 201);
});
