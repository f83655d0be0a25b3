import { parseBody, Reply, withPublic } from "@/lib/api/route";
import { SetupSchema } from "@/lib/identity/auth/schemas";
import { runSetup, setupCodeRequired, setupNeeded, setupRequester } from "@/lib/team/workspaces/server";

export const runtime = "nodejs";

// GET /api/v1/setup – whether first-run set-up is still needed, and whether this caller needs the set-up code
export const GET = withPublic(async ({ request }) => ({ needed: await setupNeeded(), codeRequired: setupCodeRequired(setupRequester(request)) }));

// POST /api/v1/setup – create the owner, a default workspace and an API token (only once)
export const POST = withPublic(async ({ request }) => new Reply(await runSetup(await parseBody(request, SetupSchema), setupRequester(request)), 201));
