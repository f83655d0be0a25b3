import { withWorkspace } from "@/lib/api/route";
import { listHistory, pinningStatus } from "@/lib/watch/drift/server";

export const runtime = "nodejs";

// GET /api/v1/servers/:id/capabilities/history – the server's capability snapshots, newest first (each with the scan's findings), and its pinning
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ items: await listHistory(principal, params.id), pinning: await pinningStatus(principal, params.id) }));
