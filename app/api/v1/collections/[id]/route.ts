import { parseBody, withWorkspace } from "@/lib/api/route";
import { UpdateCollectionSchema } from "@/lib/domains/collections/schemas";
import { deleteCollection, getCollection, updateCollection } from "@/lib/domains/collections/server";

export const runtime = "nodejs";

// GET /api/v1/collections/:id – one collection with its steps
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ collection: await getCollection(principal, params.id) }));

// PATCH /api/v1/collections/:id – change a collection (its author, or an admin)
export const PATCH = withWorkspace<{ id: string }>(async ({ request, principal, params }) => ({
  collection: await updateCollection(principal, params.id, await parseBody(request, UpdateCollectionSchema)),
}));

// DELETE /api/v1/collections/:id – delete a collection and its runs (its author, or an admin)
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await deleteCollection(principal, params.id);
});
