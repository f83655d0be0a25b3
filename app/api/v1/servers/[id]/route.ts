import { parseBody, withWorkspace } from "@/lib/api/route";
import { UpdateServerSchema } from "@/lib/domains/servers/schemas";
import { archiveServer, getServer, updateServer } from "@/lib/domains/servers/server";

export const runtime = "nodejs";

// GET /api/v1/servers/:id – one server (no secrets); archived ones too, with archivedAt
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ server: await getServer(principal, params.id) }));

// PATCH /api/v1/servers/:id – edit; header values: string sets, null removes, absent keeps
export const PATCH = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const input = await parseBody(request, UpdateServerSchema);
  return { server: await updateServer(principal, params.id, input) };
});

// DELETE /api/v1/servers/:id – archive: end its session, drop it from the list, keep its history
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await archiveServer(principal, params.id);
});
