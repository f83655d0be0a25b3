import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { CreateMonitorSchema } from "@/lib/watch/monitors/schemas";
import { createMonitor, listMonitors } from "@/lib/watch/monitors/server";

export const runtime = "nodejs";

// GET /api/v1/monitors – the workspace's monitors with their state
export const GET = withWorkspace(async ({ principal }) => ({ items: await listMonitors(principal) }));

// POST /api/v1/monitors – run a collection on a schedule
export const POST = withWorkspace(async ({ request, principal }) => new Reply({ monitor: await createMonitor(principal, await parseBody(request, CreateMonitorSchema)) }, 201));
