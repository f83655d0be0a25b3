import { withWorkspace } from "@/lib/api/route";
import { cancelLoadTest } from "@/lib/domains/load-tests/server";

export const runtime = "nodejs";

// POST /api/v1/load-tests/:id/cancel – stop a running load test (it keeps the figures it has)
export const POST = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ loadTest: await cancelLoadTest(principal, params.id) }));
