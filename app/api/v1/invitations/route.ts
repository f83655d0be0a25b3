import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { CreateInvitationSchema } from "@/lib/team/members/schemas";
import { createInvitation, listInvitations } from "@/lib/team/members/server";

export const runtime = "nodejs";

// GET /api/v1/invitations – pending invitations (not used, revoked or expired), with their links
export const GET = withWorkspace(async ({ request, principal }) => ({ items: await listInvitations(principal, request) }));

// POST /api/v1/invitations – invite an address with a role; mailed when SMTP is configured
export const POST = withWorkspace(async ({ request, principal }) => {
  const input = await parseBody(request, CreateInvitationSchema);
  return new Reply({ invitation: await createInvitation(principal, input, request) }, 201);
});
