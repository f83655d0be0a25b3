import { parseBody, withWorkspace } from "@/lib/api/route";
import { AppReadResourceSchema } from "@/lib/domains/apps/schemas";
import { readAppResource } from "@/lib/domains/apps/server";

export const runtime = "nodejs";

// POST /api/v1/calls/:id/app/resources/read – a resource read for the app hosted in call :id
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const body = await parseBody(request, AppReadResourceSchema);
  return { call: await readAppResource(principal, params.id, body) };
});
