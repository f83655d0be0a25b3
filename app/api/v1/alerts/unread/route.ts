import { withWorkspace } from "@/lib/api/route";
import { unreadAlerts } from "@/lib/watch/alerts/server";

export const runtime = "nodejs";

// GET /api/v1/alerts/unread – how many alerts the caller's role may act on arrived since they last opened Alerts
export const GET = withWorkspace(async ({ principal }) => ({ unread: await unreadAlerts(principal) }));
