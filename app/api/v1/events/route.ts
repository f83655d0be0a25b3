import { withWorkspace } from "@/lib/api/route";
import { eventStreamResponse } from "@/lib/core/events/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /api/v1/events – the workspace's live events (SSE with ids; Last-Event-ID resumes)
export const GET = withWorkspace(async ({ request, principal }) => eventStreamResponse({ request, workspaceId: principal.workspaceId }));
