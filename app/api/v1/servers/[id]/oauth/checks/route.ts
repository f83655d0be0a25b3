import { withWorkspace } from "@/lib/api/route";
import { runOAuthChecks } from "@/lib/domains/server-oauth/server";
import { getServerForCall } from "@/lib/domains/servers/server";

export const runtime = "nodejs";

// POST /api/v1/servers/:id/oauth/checks – run the OAuth discovery steps live (401, resource and AS metadata, client identity); each step with expected, found and a diagnosis
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => runOAuthChecks(principal, await getServerForCall(principal, params.id), request));
