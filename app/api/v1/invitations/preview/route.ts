import { parseBody, withPublic } from "@/lib/api/route";
import { InvitationTokenSchema } from "@/lib/team/members/schemas";
import { previewInvitation } from "@/lib/team/members/server";

export const runtime = "nodejs";

// POST /api/v1/invitations/preview – what a link offers and whether it is still valid (the token is the credential)
export const POST = withPublic(async ({ request }) => {
  const { token } = await parseBody(request, InvitationTokenSchema);
  return { invitation: await previewInvitation(token, request) };
});
