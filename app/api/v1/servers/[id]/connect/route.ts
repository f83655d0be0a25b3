import { withWorkspace } from "@/lib/api/route";
import { connect } from "@/lib/domains/servers/server";

export const runtime = "nodejs";

// POST /api/v1/servers/:id/connect – open a new MCP session (502 with the cause on failure)
export const POST = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ session: await connect(principal, params.id) }));
