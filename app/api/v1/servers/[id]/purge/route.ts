import { parseBody, withWorkspace } from "@/lib/api/route";
import { purgeServerCalls } from "@/lib/domains/calls/server";
import { PurgeServerSchema } from "@/lib/domains/servers/schemas";
import { purgeServer } from "@/lib/domains/servers/server";

export const runtime = "nodejs";

// POST /api/v1/servers/:id/purge – delete an archived server and all its history; { confirm } must equal its call count
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const { confirm } = await parseBody(request, PurgeServerSchema);
  return purgeServer(principal, params.id, confirm, { deleteCalls: purgeServerCalls });
});
