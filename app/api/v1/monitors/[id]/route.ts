import { parseBody, withWorkspace } from "@/lib/api/route";
import { UpdateMonitorSchema } from "@/lib/watch/monitors/schemas";
import { deleteMonitor, getMonitor, updateMonitor } from "@/lib/watch/monitors/server";

export const runtime = "nodejs";

// GET /api/v1/monitors/:id – one monitor with its state
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ monitor: await getMonitor(principal, params.id) }));

// PATCH /api/v1/monitors/:id – change a monitor (its author, or an admin)
export const PATCH = withWorkspace<{ id: string }>(async ({ request, principal, params }) => ({
  monitor: await updateMonitor(principal, params.id, await parseBody(request, UpdateMonitorSchema)),
}));

// DELETE /api/v1/monitors/:id – delete a monitor (its runs stay) (its author, or an admin)
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await deleteMonitor(principal, params.id);
});
