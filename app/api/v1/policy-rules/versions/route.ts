import { parseQuery, withWorkspace } from "@/lib/api/route";
import { ListVersionsQuerySchema } from "@/lib/domains/policies/schemas";
import { listVersions } from "@/lib/domains/policies/server";

export const runtime = "nodejs";

// GET /api/v1/policy-rules/versions – the rule set's versions, newest first, with what changed and who changed it
export const GET = withWorkspace(async ({ request, principal }) => listVersions(principal, parseQuery(request, ListVersionsQuerySchema)));
