import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { CreateMockSchema } from "@/lib/domains/mocks/schemas";
import { createMock, listMocks } from "@/lib/domains/mocks/server";

export const runtime = "nodejs";

// GET /api/v1/mocks – the workspace's mock servers
export const GET = withWorkspace(async ({ principal }) => ({ items: await listMocks(principal) }));

// POST /api/v1/mocks – make one from history: { name, callIds | runId | sessionId | filter, match, ignore?, latency? }
export const POST = withWorkspace(async ({ request, principal }) => {
  return new Reply({ mock: await createMock(principal, await parseBody(request, CreateMockSchema)) }, 201);
});
