import { withWorkspace } from "@/lib/api/route";
import { leaveWorkspace } from "@/lib/team/members/server";

export const runtime = "nodejs";

// POST /api/v1/members/leave – leave the workspace (not as its last owner)
export const POST = withWorkspace(async ({ principal }) => {
  await leaveWorkspace(principal);
});
