import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { CreateTokenSchema } from "@/lib/identity/auth/schemas";
import { createToken, listTokens } from "@/lib/team/workspaces/server";

export const runtime = "nodejs";

// GET /api/v1/tokens – the caller's API tokens in this workspace
export const GET = withWorkspace(async ({ principal }) => ({ items: await listTokens(principal) }));

// POST /api/v1/tokens – create a token (scope full or read); its secret is returned this once
export const POST = withWorkspace(async ({ request, principal }) => {
  return new Reply(await createToken(principal, await parseBody(request, CreateTokenSchema)), 201);
});
