import { parseQuery, withWorkspace } from "@/lib/api/route";
import { ListSharesQuerySchema } from "@/lib/domains/shares/schemas";
import { listShares } from "@/lib/domains/shares/server";

export const runtime = "nodejs";

// GET /api/v1/shares – every share link of the workspace, newest first
export const GET = withWorkspace(async ({ request, principal }) => listShares(principal, parseQuery(request, ListSharesQuerySchema), request));
