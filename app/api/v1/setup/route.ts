import { parseBody, Reply, withPublic } from "@/lib/api/route";
import { SetupSchema } from "@/lib/auth";
import { runSetup, setupNeeded } from "@/lib/workspaces/server";

export const runtime = "nodejs";

// GET /api/v1/setup – whether first-run set-up is still needed
export const GET = withPublic(async () => ({ needed: await setupNeeded() }));

// POST /api/v1/setup – create the owner, a default workspace and an API token (only once)
export const POST = withPublic(async ({ request }) => new Reply(await runSetup(await parseBody(request, SetupSchema)), 201));
