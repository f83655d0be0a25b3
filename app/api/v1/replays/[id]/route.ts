import { parseQuery, Reply, withWorkspace } from "@/lib/api/route";
import { ReplayQuerySchema } from "@/lib/domains/replays/schemas";
import { getReplay, getReplayJUnit } from "@/lib/domains/replays/server";

export const runtime = "nodejs";

// GET /api/v1/replays/:id – a replay with each call's outcome (`?format=junit`: JUnit XML)
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const { format } = parseQuery(request, ReplayQuerySchema);
  if (format === "junit") return Reply.raw(await getReplayJUnit(principal, params.id), 200, { "content-type": "application/xml; charset=utf-8" });
  return { replay: await getReplay(principal, params.id) };
});
