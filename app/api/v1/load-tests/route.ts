import { parseBody, parseQuery, Reply, withWorkspace } from "@/lib/api/route";
import { CreateLoadTestSchema, ListLoadTestsQuerySchema } from "@/lib/domains/load-tests/schemas";
import { listLoadTests, startLoadTest } from "@/lib/domains/load-tests/server";

export const runtime = "nodejs";

// GET /api/v1/load-tests – the workspace's load tests, newest first
export const GET = withWorkspace(async ({ request, principal }) => ({ items: await listLoadTests(principal, parseQuery(request, ListLoadTestsQuerySchema)) }));

// POST /api/v1/load-tests – start a load test of a collection or one call (202: it runs on)
export const POST = withWorkspace(async ({ request, principal }) => new Reply({ loadTest: await startLoadTest(principal, await parseBody(request, CreateLoadTestSchema)) }, 202));
