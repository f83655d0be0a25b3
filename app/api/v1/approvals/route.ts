import { parseQuery, withWorkspace } from "@/lib/api/route";
import { ListApprovalsSchema } from "@/lib/domains/approvals/schemas";
import { listApprovals } from "@/lib/domains/approvals/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/v1/approvals – calls held by `approve` rules, newest first; ?status=pending|decided|all
export const GET = withWorkspace(async ({ request, principal }) => ({ items: await listApprovals(principal, parseQuery(request, ListApprovalsSchema)) }));
