import { Reply, withWorkspace } from "@/lib/api/route";
import { exportCollection } from "@/lib/domains/collections/server";

export const runtime = "nodejs";

// GET /api/v1/collections/:id/export – the collection as one JSON file (no secrets), as an attachment
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  const file = await exportCollection(principal, params.id);
  const slug = file.name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "collection";
  return new Reply(file, 200, { "content-disposition": `attachment; filename="${slug}.collection.json"` });
});
