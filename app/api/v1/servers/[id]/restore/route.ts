import { withWorkspace } from "@/lib/api/route";
import { restoreServer } from "@/lib/domains/servers/server";

export const runtime = "nodejs";

// POST /api/v1/servers/:id/restore – make an archived server active again (409 if its name is taken now)
export const POST = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ server: await restoreServer(principal, params.id) }));
