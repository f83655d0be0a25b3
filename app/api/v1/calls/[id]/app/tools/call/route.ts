import { callBodyLimit, parseBody, withWorkspace } from "@/lib/api/route";
import { AppCallToolSchema } from "@/lib/domains/apps/schemas";
import { callAppTool } from "@/lib/domains/apps/server";

export const runtime = "nodejs";

// POST /api/v1/calls/:id/app/tools/call – a tool call made by the app hosted in call :id
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const body = await parseBody(request, AppCallToolSchema, { maxBytes: callBodyLimit() });
  return { call: await callAppTool(principal, params.id, body) };
});
