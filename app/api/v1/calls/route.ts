import { parseQuery, withWorkspace } from "@/lib/api/route";
import { ListCallsQuerySchema } from "@/lib/domains/calls/schemas";
import { listCalls } from "@/lib/domains/calls/server";

export const runtime = "nodejs";

// GET /api/v1/calls – the workspace's calls, newest first, filtered, cursor-paginated
export const GET = withWorkspace(async ({ request, principal }) => listCalls(principal, parseQuery(request, ListCallsQuerySchema)));
