import { withWorkspace } from "@/lib/api/route";
import { consoleOrigin } from "@/lib/identity/auth";
import { verifyWorkspaceProvider } from "@/lib/identity/sso/server";

export const runtime = "nodejs";

// POST /api/v1/workspace/sso/provider/verify – look up the domain's TXT record; the provider signs people in once it matches (owner)
export const POST = withWorkspace(async ({ request, principal }) => ({ provider: await verifyWorkspaceProvider(principal, consoleOrigin(request)) }));
