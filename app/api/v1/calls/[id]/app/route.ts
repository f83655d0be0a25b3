import { withWorkspace } from "@/lib/api/route";
import { getCallApp } from "@/lib/domains/apps/server";

export const runtime = "nodejs";

// GET /api/v1/calls/:id/app – whether the call's tool has an MCP App, and where its sandbox lives
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => getCallApp(principal, params.id, request));
