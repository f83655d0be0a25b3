import { parseBody, Reply, withWorkspace } from "@/lib/api/route";
import { consoleOrigin } from "@/lib/identity/auth";
import { RegisterSsoProviderSchema } from "@/lib/identity/sso/schemas";
import { registerWorkspaceProvider, removeWorkspaceProvider } from "@/lib/identity/sso/server";

export const runtime = "nodejs";

// POST /api/v1/workspace/sso/provider – register the workspace's own OIDC identity provider, inactive until its email domain is verified (owner)
export const POST = withWorkspace(async ({ request, principal }) => {
  const input = await parseBody(request, RegisterSsoProviderSchema);
  return new Reply({ provider: await registerWorkspaceProvider(principal, input, consoleOrigin(request)) }, 201);
});

// DELETE /api/v1/workspace/sso/provider – remove the workspace's own identity provider (owner)
export const DELETE = withWorkspace(async ({ principal }) => removeWorkspaceProvider(principal));
