import { withWorkspace } from "@/lib/api/route";
import { getMe } from "@/lib/workspaces/server";

export const runtime = "nodejs";

// GET /api/v1/me – the caller, their current workspace and the workspaces they belong to
export const GET = withWorkspace(async ({ principal }) => getMe(principal));
