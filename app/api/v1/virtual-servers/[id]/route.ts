import { parseBody, withWorkspace } from "@/lib/api/route";
import { UpdateVirtualServerSchema } from "@/lib/domains/virtual-servers/schemas";
import { deleteVirtualServer, getVirtualServer, updateVirtualServer } from "@/lib/domains/virtual-servers/server";

export const runtime = "nodejs";

// GET /api/v1/virtual-servers/:id – one virtual server, each tool flagged when its server is archived or deleted
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ virtualServer: await getVirtualServer(principal, params.id) }));

// PATCH /api/v1/virtual-servers/:id – rename it or replace its tools
export const PATCH = withWorkspace<{ id: string }>(async ({ request, principal, params }) => ({
  virtualServer: await updateVirtualServer(principal, params.id, await parseBody(request, UpdateVirtualServerSchema)),
}));

// DELETE /api/v1/virtual-servers/:id – delete it (its endpoint answers 404)
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await deleteVirtualServer(principal, params.id);
});
