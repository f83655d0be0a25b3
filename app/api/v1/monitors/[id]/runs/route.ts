import { parseQuery, withWorkspace } from "@/lib/api/route";
import { ListQuerySchema } from "@/lib/watch/monitors/schemas";
import { monitorRuns } from "@/lib/watch/monitors/server";

export const runtime = "nodejs";

// GET /api/v1/monitors/:id/runs – the monitor's runs, newest first (as GET /api/v1/runs/:id)
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => ({ items: await monitorRuns(principal, params.id, parseQuery(request, ListQuerySchema)) }));
