import { parseQuery, withWorkspace } from "@/lib/api/route";
import { StatsQuerySchema } from "@/lib/domains/stats/schemas";
import { getStats } from "@/lib/domains/stats/server";

export const runtime = "nodejs";

// GET /api/v1/stats – calls over time, error rate, p50/p95 duration, top tools, by user and by origin
export const GET = withWorkspace(async ({ request, principal }) => getStats(principal, parseQuery(request, StatsQuerySchema)));
