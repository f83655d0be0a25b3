import { parseBody, withWorkspace } from "@/lib/api/route";
import { SetLogLevelSchema } from "@/lib/domains/logs/schemas";
import { getServerForCall } from "@/lib/domains/servers/server";
import { setServerLogLevel } from "@/lib/domains/sessions/server";

export const runtime = "nodejs";

// POST /api/v1/servers/:id/log-level – set the level of log lines the live session sends
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const { level } = await parseBody(request, SetLogLevelSchema);
  return setServerLogLevel(await getServerForCall(principal, params.id), level);
});
