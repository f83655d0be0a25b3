import { parseQuery, withWorkspace } from "@/lib/api/route";
import { ListAuditQuerySchema } from "@/lib/core/audit/schemas";
import { listAudit } from "@/lib/core/audit/server";

export const runtime = "nodejs";

// GET /api/v1/audit – the workspace's audit log, newest first; filters action (exact or "prefix."), actorId, targetType, targetId, since, until
export const GET = withWorkspace(async ({ request, principal }) => listAudit(principal, parseQuery(request, ListAuditQuerySchema)));
