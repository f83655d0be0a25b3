import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { CreateRuleSchema } from "@/lib/domains/policies/schemas";
import { createRule, listRules, unprocessableRule } from "@/lib/domains/policies/server";

export const runtime = "nodejs";

// GET /api/v1/policy-rules – the workspace's rules in order, the rule set's version and the default
export const GET = withWorkspace(async ({ principal }) => {
  const set = await listRules(principal);
  return { items: set.rules, version: set.version, policyDefault: set.policyDefault, updatedAt: set.updatedAt };
});

// POST /api/v1/policy-rules – add a rule (admin): a new version of the rule set
export const POST = withWorkspace(async ({ request, principal }) => {
  return new Reply({ rule: await createRule(principal, await parseBody(request, CreateRuleSchema).catch(unprocessableRule)) }, 201);
});
