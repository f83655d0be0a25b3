import { parseBody, withWorkspace } from "@/lib/api/route";
import { UpdateRuleSchema } from "@/lib/domains/policies/schemas";
import { deleteRule, getRule, unprocessableRule, updateRule } from "@/lib/domains/policies/server";

export const runtime = "nodejs";

// GET /api/v1/policy-rules/:id – one rule
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ rule: await getRule(principal, params.id) }));

// PATCH /api/v1/policy-rules/:id – change a rule's fields (null removes an optional one; admin)
export const PATCH = withWorkspace<{ id: string }>(async ({ request, principal, params }) => ({
  rule: await updateRule(principal, params.id, await parseBody(request, UpdateRuleSchema).catch(unprocessableRule)),
}));

// DELETE /api/v1/policy-rules/:id – remove a rule (admin)
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await deleteRule(principal, params.id);
});
