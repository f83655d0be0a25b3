import { parseBody, withWorkspace } from "@/lib/api/route";
import { UpdateServerSchema } from "@/lib/servers";
import { deleteServer, getServer, updateServer } from "@/lib/servers/server";

export const runtime = "nodejs";

// GET /api/v1/servers/:id – one server (no secrets)
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ server: await getServer(principal, params.id) }));

// PATCH /api/v1/servers/:id – edit; header values: string sets, null removes, absent keeps
export const PATCH = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const input = await parseBody(request, UpdateServerSchema);
  return { server: await updateServer(principal, params.id, input) };
});

// DELETE /api/v1/servers/:id – end its session and delete it (its call history goes with it)
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await deleteServer(principal, params.id);
});
