import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { CreateShareSchema } from "@/lib/domains/shares/schemas";
import { createShare, listCallShares } from "@/lib/domains/shares/server";

export const runtime = "nodejs";

// GET /api/v1/calls/:id/shares – this call's links that still work, and whether sharing is on
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => listCallShares(principal, params.id, request));

// POST /api/v1/calls/:id/shares – create a public read-only link (optional expiry)
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const input = await parseBody(request, CreateShareSchema);
  return new Reply({ share: await createShare(principal, params.id, input, request) }, 201);
});
