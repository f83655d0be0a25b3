import { parseBody, withWorkspace } from "@/lib/api/route";
import { UpdateMemberSchema } from "@/lib/team/members/schemas";
import { removeMember, updateMemberRole } from "@/lib/team/members/server";

export const runtime = "nodejs";

// PATCH /api/v1/members/:userId – change a member's role (admins below owner, owners anyone)
export const PATCH = withWorkspace<{ userId: string }>(async ({ request, principal, params }) => {
  const { role } = await parseBody(request, UpdateMemberSchema);
  return { member: await updateMemberRole(principal, params.userId, role) };
});

// DELETE /api/v1/members/:userId – remove a member; their tokens and sessions stop working here at once
export const DELETE = withWorkspace<{ userId: string }>(async ({ principal, params }) => {
  await removeMember(principal, params.userId);
});
