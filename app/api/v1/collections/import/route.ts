import { parseBody, parseQuery, Reply, withWorkspace } from "@/lib/api/route";
import { CollectionFileSchema, ImportCollectionQuerySchema } from "@/lib/domains/collections/schemas";
import { importCollection } from "@/lib/domains/collections/server";

export const runtime = "nodejs";

// POST /api/v1/collections/import – a collection export file becomes a new collection (?name= imports it under another name)
export const POST = withWorkspace(async ({ request, principal }) => {
  const { name } = parseQuery(request, ImportCollectionQuerySchema);
  const file = await parseBody(request, CollectionFileSchema);
  return new Reply({ collection: await importCollection(principal, file, name) }, 201);
});
