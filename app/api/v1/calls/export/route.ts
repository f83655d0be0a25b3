import { parseQuery, Reply, withWorkspace } from "@/lib/api/route";
import { ExportCallsQuerySchema } from "@/lib/domains/calls/schemas";
import { exportCalls } from "@/lib/domains/calls/server";

export const runtime = "nodejs";

// GET /api/v1/calls/export – the filtered history as an NDJSON or CSV attachment, streamed
export const GET = withWorkspace(async ({ request, principal }) => {
  const query = parseQuery(request, ExportCallsQuerySchema);
  const { stream, fileName } = await exportCalls(principal, query);
  return Reply.raw(stream, 200, {
    "content-type": query.format === "csv" ? "text/csv; charset=utf-8; header=present" : "application/x-ndjson; charset=utf-8",
    "content-disposition": `attachment; filename="${fileName}"`,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
});
