import { parseBody, parseQuery, Reply, withWorkspace } from "@/lib/api/route";
import { ListRunsQuerySchema, StartRunSchema } from "@/lib/domains/collections/schemas";
import { listRuns, startRun } from "@/lib/domains/collections/server";

export const runtime = "nodejs";

// GET /api/v1/collections/:id/runs – the collection's runs, newest first (people's by default, ?origin=monitor a monitor's)
export const GET = withWorkspace<{ id: string }>(async ({ request, principal, params }) => ({ items: await listRuns(principal, params.id, parseQuery(request, ListRunsQuerySchema)) }));

// POST /api/v1/collections/:id/runs – start a run; it goes on after the answer (poll GET /api/v1/runs/:id)
export const POST = withWorkspace<{ id: string }>(async ({ request, principal, params }) => {
  const body = await parseBody(request, StartRunSchema);
  const { run } = await startRun({ principal, collectionId: params.id, ...body });
  return new Reply({ run }, 202);
});
