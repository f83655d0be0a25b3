import { parseBody, Reply, withPublic } from "@/lib/api/route";
import { AcceptInvitationSchema } from "@/lib/team/members/schemas";
import { acceptInvitation } from "@/lib/team/members/server";

export const runtime = "nodejs";

// POST /api/v1/invitations/accept – join with a new account ({ token, name, password }) or as the signed-in user ({ token })
export const POST = withPublic(async ({ request }) => {
  const { result, setCookies } = await acceptInvitation(await parseBody(request, AcceptInvitationSchema), request);
  return new Reply(result, 200, { "set-cookie": setCookies });
});
