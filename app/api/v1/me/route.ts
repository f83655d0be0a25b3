import { parseBody, withWorkspace } from "@/lib/api/route";
import { UpdateMeSchema } from "@/lib/team/workspaces/schemas";
import { getMe, updateMe } from "@/lib/team/workspaces/server";

export const runtime = "nodejs";

// GET /api/v1/me – the caller, their current workspace and the workspaces they belong to
export const GET = withWorkspace(async ({ principal }) => getMe(principal));

// PATCH /api/v1/me – the caller's own preferences: `{ theme: "light" | "dark" | "system" }`
export const PATCH = withWorkspace(async ({ request, principal }) => updateMe(principal, await parseBody(request, UpdateMeSchema)));
