import { parseBody, withWorkspace } from "@/lib/api/route";
import { ExposureSchema } from "@/lib/gateway";
import { getExposure, setExposure } from "@/lib/gateway/server";

export const runtime = "nodejs";

// GET /api/v1/servers/:id/exposure – whether the server is offered at its gateway endpoint, and how
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ exposure: await getExposure(principal, params.id) }));

// PUT /api/v1/servers/:id/exposure – offer the server to other MCP hosts (or stop): tools, read-only, rate limit
export const PUT = withWorkspace<{ id: string }>(async ({ request, principal, params }) => ({
  exposure: await setExposure(principal, params.id, await parseBody(request, ExposureSchema)),
}));
