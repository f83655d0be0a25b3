import { parseQuery, withWorkspace } from "@/lib/api/route";
import { ListQuerySchema } from "@/lib/watch/monitors/schemas";
import { monitorTicks } from "@/lib/watch/monitors/server";

export const runtime = "nodejs";

// GET /api/v1/monitors/:id/ticks – the monitor's ticks (ran or skipped, with the reason), newest first
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => ({ items: await monitorTicks(principal, params.id, parseQuery(request, ListQuerySchema)) }));
