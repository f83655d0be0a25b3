import { withWorkspace } from "@/lib/api/route";
import { oauthTraces } from "@/lib/domains/server-oauth/server";
import { getServerForCall } from "@/lib/domains/servers/server";

export const runtime = "nodejs";

// GET /api/v1/servers/:id/oauth/trace – the server's last OAuth checks and the caller's last sign-in and refresh, secrets redacted
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => oauthTraces(principal, await getServerForCall(principal, params.id)));
