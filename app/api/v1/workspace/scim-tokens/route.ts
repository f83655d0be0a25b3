import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { CreateScimTokenSchema } from "@/lib/team/scim/schemas";
import { createScimToken, listScimTokens } from "@/lib/team/scim/server";

export const runtime = "nodejs";

// GET /api/v1/workspace/scim-tokens – the workspace's SCIM tokens (owner)
export const GET = withWorkspace(async ({ principal }) => ({ items: await listScimTokens(principal) }));

// POST /api/v1/workspace/scim-tokens – a SCIM token for the identity provider; its secret is returned this once (owner)
export const POST = withWorkspace(async ({ request, principal }) => new Reply(await createScimToken(principal, await parseBody(request, CreateScimTokenSchema)), 201));
