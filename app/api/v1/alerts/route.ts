import { parseQuery, withWorkspace } from "@/lib/api/route";
import { ListAlertsQuerySchema } from "@/lib/watch/alerts/schemas";
import { listAlerts } from "@/lib/watch/alerts/server";

export const runtime = "nodejs";

// GET /api/v1/alerts – the workspace's alerts (monitors, capability drift), newest first
export const GET = withWorkspace(async ({ request, principal }) => ({ items: await listAlerts(principal, parseQuery(request, ListAlertsQuerySchema)) }));
