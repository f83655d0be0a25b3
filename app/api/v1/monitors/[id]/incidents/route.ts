import { parseQuery, withWorkspace } from "@/lib/api/route";
import { ListQuerySchema } from "@/lib/watch/monitors/schemas";
import { monitorIncidents } from "@/lib/watch/monitors/server";

export const runtime = "nodejs";

// GET /api/v1/monitors/:id/incidents – the monitor's incidents, newest first
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => ({ items: await monitorIncidents(principal, params.id, parseQuery(request, ListQuerySchema)) }));
