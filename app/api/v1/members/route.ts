import { withWorkspace } from "@/lib/api/route";
import { listMembers } from "@/lib/team/members/server";

export const runtime = "nodejs";

// GET /api/v1/members – the workspace's members with role, join date and last activity
export const GET = withWorkspace(async ({ principal }) => ({ items: await listMembers(principal) }));
