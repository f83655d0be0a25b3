import { parseQuery, withWorkspace } from "@/lib/api/route";
import { DiffQuerySchema } from "@/lib/watch/drift/schemas";
import { diffHistory } from "@/lib/watch/drift/server";

export const runtime = "nodejs";

// GET /api/v1/servers/:id/capabilities/diff?from=&to= – the classified changes between two snapshots (default: the previous and the latest)
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => diffHistory(principal, params.id, parseQuery(request, DiffQuerySchema)));
