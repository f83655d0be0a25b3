import { parseBody, withWorkspace } from "@/lib/api/route";
import { DenyApprovalSchema } from "@/lib/domains/approvals/schemas";
import { decideApproval } from "@/lib/domains/approvals/server";

export const runtime = "nodejs";

// POST /api/v1/approvals/:id/deny – refuses a held call; { reason } (required: the caller is told it)
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const input = await parseBody(request, DenyApprovalSchema);
  return { approval: await decideApproval(principal, params.id, { approve: false, input }) };
});
