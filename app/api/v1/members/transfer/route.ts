import { parseBody, withWorkspace } from "@/lib/api/route";
import { TransferOwnershipSchema } from "@/lib/team/members/schemas";
import { transferOwnership } from "@/lib/team/members/server";

export const runtime = "nodejs";

// POST /api/v1/members/transfer – make another member the owner; the caller becomes an admin
export const POST = withWorkspace(async ({ request, principal }) => {
  const { userId } = await parseBody(request, TransferOwnershipSchema);
  return transferOwnership(principal, userId);
});
