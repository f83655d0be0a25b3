import { parseBody, withWorkspace } from "@/lib/api/route";
import { RollbackSchema } from "@/lib/domains/policies/schemas";
import { rollback, unprocessableRule } from "@/lib/domains/policies/server";

export const runtime = "nodejs";

// POST /api/v1/policy-rules/rollback – make an earlier version's rules and default current again, as a new version (admin)
export const POST = withWorkspace(async ({ request, principal }) => {
  const set = await rollback(principal, await parseBody(request, RollbackSchema).catch(unprocessableRule));
  return { items: set.rules, version: set.version, policyDefault: set.policyDefault, updatedAt: set.updatedAt };
});
