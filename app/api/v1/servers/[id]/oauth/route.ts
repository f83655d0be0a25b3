import { withWorkspace } from "@/lib/api/route";
import { oauthStatus, signOut } from "@/lib/domains/server-oauth/server";
import { getServerForCall } from "@/lib/domains/servers/server";
import { disconnectMember } from "@/lib/domains/sessions/server";

export const runtime = "nodejs";

// GET /api/v1/servers/:id/oauth – the caller's OAuth state for the server (mode, signed in, scope, expiry; never tokens)
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => oauthStatus(principal, await getServerForCall(principal, params.id)));

// DELETE /api/v1/servers/:id/oauth – sign out of the server: revoke (RFC 7009) where offered, delete the tokens
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  const server = await getServerForCall(principal, params.id);
  const outcome = await signOut(principal, server);
  await disconnectMember(server);
  return outcome;
});
