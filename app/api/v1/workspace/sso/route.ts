import { parseBody, withWorkspace } from "@/lib/api/route";
import { consoleOrigin } from "@/lib/identity/auth";
import { UpdateWorkspaceSsoSchema } from "@/lib/identity/sso/schemas";
import { getWorkspaceSso, updateWorkspaceSso } from "@/lib/identity/sso/server";

export const runtime = "nodejs";

// GET /api/v1/workspace/sso – the workspace's single sign-on: its identity provider (and the DNS record verifying it), whether SSO is required, the joining role
export const GET = withWorkspace(async ({ request, principal }) => ({ sso: await getWorkspaceSso(principal, consoleOrigin(request)) }));

// PATCH /api/v1/workspace/sso – require SSO (passwords refused for members, owners excepted) and the role first sign-ins get (owner)
export const PATCH = withWorkspace(async ({ request, principal }) => ({ sso: await updateWorkspaceSso(principal, await parseBody(request, UpdateWorkspaceSsoSchema), consoleOrigin(request)) }));
