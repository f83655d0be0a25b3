import { parseQuery, withWorkspace } from "@/lib/api/route";
import { LintQuerySchema } from "@/lib/domains/quality/schemas";
import { lintServer } from "@/lib/domains/quality/server";

export const runtime = "nodejs";

// GET /api/v1/servers/:id/lint?snapshotId= – the lint findings and token cost of the server's latest (or the given) capability snapshot, with the token total per snapshot
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => lintServer(principal, params.id, parseQuery(request, LintQuerySchema)));
