import { parseBody, withWorkspace } from "@/lib/api/route";
import { DecideApprovalSchema } from "@/lib/domains/approvals/schemas";
import { decideApproval } from "@/lib/domains/approvals/server";

export const runtime = "nodejs";

// POST /api/v1/approvals/:id/approve – lets a held call run; { reason? }
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const input = await parseBody(request, DecideApprovalSchema);
  return { approval: await decideApproval(principal, params.id, { approve: true, input }) };
});
