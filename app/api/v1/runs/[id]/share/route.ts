import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { CreateShareSchema } from "@/lib/domains/shares/schemas";
import { createRunShare } from "@/lib/domains/shares/server";

export const runtime = "nodejs";

// POST /api/v1/runs/:id/share – create a public read-only, redacted link to a collection run (optional expiry)
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const input = await parseBody(request, CreateShareSchema);
  return new Reply({ share: await createRunShare(principal, params.id, input, request) }, 201);
});
