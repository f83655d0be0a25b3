import { withWorkspace } from "@/lib/api/route";
import { listResourceSubscriptions } from "@/lib/domains/resources/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/v1/servers/:id/resources/subscriptions – the resources the live session is subscribed to
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => listResourceSubscriptions(principal, params.id));
