import { withWorkspace } from "@/lib/api/route";
import { getLoadTest } from "@/lib/domains/load-tests/server";

export const runtime = "nodejs";

// GET /api/v1/load-tests/:id – a load test's figures (live while it runs); its summary also at the top level
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  const loadTest = await getLoadTest(principal, params.id);
  const { status, calls, errors, callsPerSecond, p50, p95, p99, steps } = loadTest;
  return { loadTest, status, calls, errors, callsPerSecond, p50, p95, p99, steps };
});
