import { parseQuery, withWorkspace } from "@/lib/api/route";
import { UptimeQuerySchema } from "@/lib/watch/monitors/schemas";
import { monitorUptime } from "@/lib/watch/monitors/server";

export const runtime = "nodejs";

// GET /api/v1/monitors/:id/uptime?hours=24 – success rate, p50/p95 and incidents over the last hours
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => monitorUptime(principal, params.id, parseQuery(request, UptimeQuerySchema)));
