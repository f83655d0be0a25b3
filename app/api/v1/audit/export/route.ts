import { parseQuery, Reply, withWorkspace } from "@/lib/api/route";
import { ListAuditQuerySchema } from "@/lib/core/audit/schemas";
import { exportAudit } from "@/lib/core/audit/server";

export const runtime = "nodejs";

// GET /api/v1/audit/export – the filtered audit log as NDJSON (streamed page by page), newest first
export const GET = withWorkspace(async ({ request, principal }) => {
  const { cursor: _cursor, limit: _limit, ...filters } = parseQuery(request, ListAuditQuerySchema);
  const day = new Date().toISOString().slice(0, 10);
  return Reply.raw(exportAudit(principal, filters), 200, {
    "content-type": "application/x-ndjson; charset=utf-8",
    "content-disposition": `attachment; filename="audit-${day}.ndjson"`,
    "cache-control": "no-store",
  });
});
