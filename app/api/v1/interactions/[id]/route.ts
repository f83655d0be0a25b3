import { withWorkspace } from "@/lib/api/route";
import { getInteraction } from "@/lib/domains/interactions/server";

export const runtime = "nodejs";

// GET /api/v1/interactions/:id – one interaction with its request and outcome
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ interaction: await getInteraction(principal, params.id) }));
