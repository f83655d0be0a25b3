import { parseBody, withWorkspace } from "@/lib/api/route";
import { WatchSchema } from "@/lib/watch/drift/schemas";
import { getWatch, removeWatch, setWatch } from "@/lib/watch/drift/server";

export const runtime = "nodejs";

// GET /api/v1/servers/:id/capabilities/watch – whether breaking changes of the server raise alerts, and where to
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ watch: await getWatch(principal, params.id) }));

// PUT /api/v1/servers/:id/capabilities/watch – watch the server: { mail?, webhooks? } (a list given replaces, omitted keeps)
export const PUT = withWorkspace<{ id: string }>(async ({ request, principal, params }) => ({
  watch: await setWatch(principal, params.id, await parseBody(request, WatchSchema)),
}));

// DELETE /api/v1/servers/:id/capabilities/watch – stop watching the server
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await removeWatch(principal, params.id);
  return { watch: null };
});
