import { parseBody, withWorkspace } from "@/lib/api/route";
import { TestPolicySchema } from "@/lib/domains/policies/schemas";
import { testPolicy, unprocessableRule } from "@/lib/domains/policies/server";

export const runtime = "nodejs";

// POST /api/v1/policy-rules/test – would this call be allowed? The decision and the deciding rule
export const POST = withWorkspace(async ({ request, principal }) => testPolicy(principal, await parseBody(request, TestPolicySchema).catch(unprocessableRule)));
