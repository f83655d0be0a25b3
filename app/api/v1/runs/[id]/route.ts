import { parseQuery, Reply, withWorkspace } from "@/lib/api/route";
import { RunQuerySchema } from "@/lib/domains/collections/schemas";
import { getRun, getRunJUnit } from "@/lib/domains/collections/server";

export const runtime = "nodejs";

// GET /api/v1/runs/:id – a collection run with each step's outcome (`?format=junit`: JUnit XML)
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const { format } = parseQuery(request, RunQuerySchema);
  if (format === "junit") return Reply.raw(await getRunJUnit(principal, params.id), 200, { "content-type": "application/xml; charset=utf-8" });
  return { run: await getRun(principal, params.id) };
});
