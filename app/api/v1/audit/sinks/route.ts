import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { CreateSinkSchema } from "@/lib/core/audit/schemas";
import { createSink, listSinks } from "@/lib/core/audit/server";

export const runtime = "nodejs";

// GET /api/v1/audit/sinks – the workspace's audit sinks with their delivery state (owner/admin)
export const GET = withWorkspace(async ({ principal }) => ({ sinks: await listSinks(principal) }));

// POST /api/v1/audit/sinks – add a sink { kind: "webhook"|"otlp"|"splunk-hec", url, secret?, include: ["audit","calls"], enabled? } (owner/admin)
export const POST = withWorkspace(async ({ request, principal }) => new Reply({ sink: await createSink(principal, await parseBody(request, CreateSinkSchema)) }, 201));
