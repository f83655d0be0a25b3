import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { CreateViewSchema } from "@/lib/domains/reviews/schemas";
import { createView, listViews } from "@/lib/domains/reviews/server";

export const runtime = "nodejs";

// GET /api/v1/views – the workspace's saved history views, by name
export const GET = withWorkspace(async ({ principal }) => ({ items: await listViews(principal) }));

// POST /api/v1/views – save a named set of history filters for the workspace
export const POST = withWorkspace(async ({ request, principal }) => {
  return new Reply({ view: await createView(principal, await parseBody(request, CreateViewSchema)) }, 201);
});
