import { parseBody, parseQuery, Reply, withWorkspace } from "@/lib/api/route";
import { CreateCollectionSchema, ListCollectionsQuerySchema } from "@/lib/domains/collections/schemas";
import { createCollection, listCollections } from "@/lib/domains/collections/server";

export const runtime = "nodejs";

// GET /api/v1/collections – the workspace's collections by name (`?name=` for one exact name)
export const GET = withWorkspace(async ({ request, principal }) => ({ items: await listCollections(principal, parseQuery(request, ListCollectionsQuerySchema)) }));

// POST /api/v1/collections – create a collection of steps
export const POST = withWorkspace(async ({ request, principal }) => {
  return new Reply({ collection: await createCollection(principal, await parseBody(request, CreateCollectionSchema)) }, 201);
});
