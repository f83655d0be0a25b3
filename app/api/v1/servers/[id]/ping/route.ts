import { withWorkspace } from "@/lib/api/route";
import { getServerForCall } from "@/lib/domains/servers/server";
import { pingServer } from "@/lib/domains/sessions/server";

export const runtime = "nodejs";

// POST /api/v1/servers/:id/ping – ping the live session (opening one if needed): latency and health
export const POST = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ ping: await pingServer(await getServerForCall(principal, params.id)) }));
