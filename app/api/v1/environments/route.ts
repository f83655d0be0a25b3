import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { CreateEnvironmentSchema } from "@/lib/domains/collections/schemas";
import { createEnvironment, listEnvironments } from "@/lib/domains/collections/server";

export const runtime = "nodejs";

// GET /api/v1/environments – the workspace's environments (secret names, never their values)
export const GET = withWorkspace(async ({ principal }) => ({ items: await listEnvironments(principal) }));

// POST /api/v1/environments – create an environment of values, secrets and server aliases
export const POST = withWorkspace(async ({ request, principal }) => {
  return new Reply({ environment: await createEnvironment(principal, await parseBody(request, CreateEnvironmentSchema)) }, 201);
});
