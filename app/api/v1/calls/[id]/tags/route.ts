import { parseBody, withWorkspace } from "@/lib/api/route";
import { SetTagsSchema } from "@/lib/domains/reviews/schemas";
import { setTags } from "@/lib/domains/reviews/server";

export const runtime = "nodejs";

// PUT /api/v1/calls/:id/tags – replace the call's tags (normalised, at most 20)
export const PUT = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const { tags } = await parseBody(request, SetTagsSchema);
  return { tags: await setTags(principal, params.id, tags) };
});
