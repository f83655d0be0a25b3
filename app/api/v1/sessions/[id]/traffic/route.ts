import { parseQuery, Reply, withWorkspace } from "@/lib/api/route";
import { ListTrafficQuerySchema } from "@/lib/domains/traffic/schemas";
import { exportSessionTraffic, listSessionTraffic } from "@/lib/domains/traffic/server";
import { requireSession } from "@/lib/domains/sessions/server";

export const runtime = "nodejs";

// GET /api/v1/sessions/:id/traffic – the session's JSON-RPC messages, oldest first (?order=newest: newest first); ?format=ndjson exports all
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const query = parseQuery(request, ListTrafficQuerySchema);
  const session = await requireSession(principal, params.id);
  if (query.format === "json") return listSessionTraffic(session.id, query);
  return Reply.raw(exportSessionTraffic(session.id, query), 200, {
    "content-type": "application/x-ndjson; charset=utf-8",
    "content-disposition": `attachment; filename="traffic-${session.id}.ndjson"`,
    "cache-control": "no-store",
  });
});
