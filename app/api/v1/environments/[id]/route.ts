import { parseBody, withWorkspace } from "@/lib/api/route";
import { UpdateEnvironmentSchema } from "@/lib/domains/collections/schemas";
import { deleteEnvironment, getEnvironment, updateEnvironment } from "@/lib/domains/collections/server";

export const runtime = "nodejs";

// GET /api/v1/environments/:id – one environment (secret names, never their values)
export const GET = withWorkspace<{ id: string }>(async ({ principal, params }) => ({ environment: await getEnvironment(principal, params.id) }));

// PATCH /api/v1/environments/:id – change values, secrets (null removes one) or server aliases
export const PATCH = withWorkspace<{ id: string }>(async ({ request, principal, params }) => ({
  environment: await updateEnvironment(principal, params.id, await parseBody(request, UpdateEnvironmentSchema)),
}));

// DELETE /api/v1/environments/:id – delete an environment
export const DELETE = withWorkspace<{ id: string }>(async ({ principal, params }) => {
  await deleteEnvironment(principal, params.id);
});
