import { parseBody, withWorkspace } from "@/lib/api/route";
import { UpdateMockSchema } from "@/lib/domains/mocks/schemas";
import { deleteMock, getMock, updateMock } from "@/lib/domains/mocks/server";

export const runtime = "nodejs";

// GET /api/v1/mocks/:id – one mock with its recordings (arguments shortened)
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ mock: await getMock(principal, params.id) }));

// PATCH /api/v1/mocks/:id – rename it, or change how it matches (match, ignore, latency)
export const PATCH = withWorkspace<{ id: string }>(async ({ request, principal, params }) => ({
  mock: await updateMock(principal, params.id, await parseBody(request, UpdateMockSchema)),
}));

// DELETE /api/v1/mocks/:id – delete it (its endpoint answers 404)
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await deleteMock(principal, params.id);
});
