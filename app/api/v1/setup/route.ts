import { parseBody, Reply, withPublic } from "@/lib/api/route";
import { SetupSchema } from "@/lib/auth/schemas";
import { clientAddress, requestHost } from "@/lib/auth/server";
import { runSetup, setupCodeRequired, setupNeeded } from "@/lib/workspaces/server";

export const runtime = "nodejs";

const requester = (request: Request) => ({ address: clientAddress(request), host: requestHost(request) });

// GET /api/v1/setup – whether first-run set-up is still needed, and whether this caller needs the set-up code
export const GET = withPublic(async ({ request }) => ({ needed: await setupNeeded(), codeRequired: setupCodeRequired(requester(request)) }));

// POST /api/v1/setup – create the owner, a default workspace and an API token (only once)
export const POST = withPublic(async ({ request }) => new Reply(await runSetup(await parseBody(request, SetupSchema), requester(request)), 201));
