import "server-only";
import { APIError } from "better-auth/api";
import type { Principal } from "@/lib/access";
import { audit } from "@/lib/audit/server";
import { notFound, SwitchboardError } from "@/lib/errors";
import type { SignInOptions, WorkspaceSsoDto } from "./index";
import { toProviderDto } from "./owner-provider";
import { operatorProvider, recheckSeconds } from "./provider";
import type { UpdateWorkspaceSso } from "./schemas";
import * as q from "./queries";

/** `GET /api/v1/sso` (public): the identity providers the sign-in page offers: the operator's, then workspaces' verified ones. */
export async function signInOptions(): Promise<SignInOptions> {
  const provider = operatorProvider();
  const own = (await q.listVerifiedProviders()).map((row) => ({ providerId: row.providerId, name: (JSON.parse(row.oidcConfig ?? "{}") as { name?: string }).name ?? row.domain }));
  return { providers: [...(provider ? [{ providerId: provider.providerId, name: provider.name }] : []), ...own] };
}

/** The operator's provider when its sign-ins join this workspace. */
async function providerOf(workspaceId: string) {
  const provider = operatorProvider();
  if (!provider) return null;
  const target = await q.findSsoWorkspace({ slug: provider.workspace });
  return target?.id === workspaceId ? provider : null;
}

export async function getWorkspaceSso(principal: Principal, origin: string): Promise<WorkspaceSsoDto> {
  const row = await q.findWorkspaceSso({ id: principal.workspaceId });
  if (!row) throw notFound("Workspace");
  const provider = await providerOf(row.id);
  const own = provider ? null : await q.findWorkspaceProvider({ workspaceId: row.id });
  return {
    provider: provider
      ? { providerId: provider.providerId, source: "operator", name: provider.name, issuer: provider.issuer, domain: provider.domain, state: "active", redirectUri: `${origin}/api/auth/sso/callback/${provider.providerId}`, verification: null }
      : own
        ? toProviderDto(own, origin)
        : null,
    ssoRequired: row.ssoRequired,
    ssoDefaultRole: row.ssoDefaultRole as WorkspaceSsoDto["ssoDefaultRole"],
    recheckSeconds: recheckSeconds(),
  };
}

/** `PATCH /api/v1/workspace/sso` (owner): require SSO (only with an identity provider for this workspace), the joining role. */
export async function updateWorkspaceSso(principal: Principal, input: UpdateWorkspaceSso, origin: string): Promise<WorkspaceSsoDto> {
  const before = await getWorkspaceSso(principal, origin);
  if (input.ssoRequired && before.provider?.state !== "active") {
    throw new SwitchboardError("unprocessable", "This workspace has no active identity provider to require: register one and verify its domain, or the operator sets one up with SWITCHBOARD_SSO_* (README)");
  }
  await q.updateWorkspaceSso({ id: principal.workspaceId, ...input });
  await audit(principal, { action: "workspace.sso_changed", target: { type: "workspace", id: principal.workspaceId }, details: { before: { ssoRequired: before.ssoRequired, ssoDefaultRole: before.ssoDefaultRole }, after: input } });
  return getWorkspaceSso(principal, origin);
}

/**
 * better-auth database hook: a password sign-in creates no session for a member of a workspace
 * that requires SSO (owners excepted). It runs after the password was checked, so a wrong
 * password still answers as any wrong password does and the rule tells nobody who is a member.
 */
export const ssoDatabaseHooks = {
  session: {
    create: {
      before: async (session: { userId: string }, ctx: { path?: string } | null) => {
        if (ctx?.path !== "/sign-in/email") return;
        const required = await q.requiresSsoFor({ userId: session.userId });
        if (!required) return;
        const name = operatorProvider()?.name ?? "your identity provider";
        throw new APIError("FORBIDDEN", { message: `${required.workspace.name} requires signing in with ${name}: use "Sign in with ${name}" instead of a password` });
      },
    },
  },
};
