import { parseBody, withWorkspace } from "@/lib/api/route";
import { AuthorizeSchema } from "@/lib/domains/server-oauth/schemas";
import { startAuthorization } from "@/lib/domains/server-oauth/server";
import { getServerForCall } from "@/lib/domains/servers/server";

export const runtime = "nodejs";

// POST /api/v1/servers/:id/oauth/authorize – start signing in to the server; the browser opens authorizationUrl
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const { scope } = await parseBody(request, AuthorizeSchema);
  return startAuthorization(principal, await getServerForCall(principal, params.id), request, scope);
});
