import { parseBody, parseQuery, Reply, withWorkspace } from "@/lib/api/route";
import { ListReplaysQuerySchema, StartReplaySchema } from "@/lib/domains/replays/schemas";
import { listReplays, startReplay, unprocessableReplay } from "@/lib/domains/replays/server";

export const runtime = "nodejs";

// GET /api/v1/replays – the workspace's replays, newest first (without their calls)
export const GET = withWorkspace(async ({ request, principal }) => ({ items: await listReplays(principal, parseQuery(request, ListReplaysQuerySchema)) }));

// POST /api/v1/replays – send a selection of history (or a mock's recordings) to a server again; it goes on after the answer (poll GET /api/v1/replays/:id)
export const POST = withWorkspace(async ({ request, principal }) => {
  const body = await parseBody(request, StartReplaySchema).catch(unprocessableReplay);
  const { replay } = await startReplay(principal, body);
  return new Reply({ replay }, 202);
});
