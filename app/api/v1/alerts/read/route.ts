import { parseBody, withWorkspace } from "@/lib/api/route";
import { MarkAlertsReadSchema } from "@/lib/watch/alerts/schemas";
import { markAlertsRead } from "@/lib/watch/alerts/server";

export const runtime = "nodejs";

// POST /api/v1/alerts/read – the caller has seen the alerts up to `upTo` (default: the newest); answers the new unread count
export const POST = withWorkspace(async ({ request, principal }) => ({ unread: await markAlertsRead(principal, await parseBody(request, MarkAlertsReadSchema)) }));
