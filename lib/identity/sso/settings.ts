import "server-only";
import { APIError } from "better-auth/api";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { forgetCache } from "@/lib/core/runtime";
import type { SignInOptions, WorkspaceSsoDto } from "./index";
import { assertOwnerIdpVouchesFor, emailInDomain } from "./guard";
import { toProviderDto } from "./owner-provider";
import { operatorProviders, recheckSeconds } from "./provider";
import type { UpdateWorkspaceSso } from "./schemas";
import * as q from "./queries";

/** `GET /api/v1/sso` (public): the identity providers the sign-in page offers: the operator's, then workspaces' verified ones. */
export async function signInOptions(): Promise<SignInOptions> {
  const operator = operatorProviders().map(({ providerId, name }) => ({ providerId, name }));
  const own = (await q.listVerifiedProviders()).map((row) => ({ providerId: row.providerId, name: (JSON.parse(row.oidcConfig ?? "{}") as { name?: string }).name ?? row.domain }));
  return { providers: [...operator, ...own] };
}

/** The operator's provider (OIDC, else SAML) when its sign-ins join this workspace. */
async function providerOf(workspaceId: string) {
  const provider = operatorProviders()[0];
  if (!provider) return null;
  const target = await q.findSsoWorkspace({ slug: provider.workspace });
  return target?.id === workspaceId ? provider : null;
}

/** Where the IdP sends the person back: the OIDC redirect URI, or the SAML assertion consumer service. */
const returnUri = (origin: string, providerId: string) =>
  providerId === "saml" ? `${origin}/api/auth/sso/saml2/sp/acs/${providerId}` : `${origin}/api/auth/sso/callback/${providerId}`;

export async function getWorkspaceSso(principal: Principal, origin: string): Promise<WorkspaceSsoDto> {
  const row = await q.findWorkspaceSso({ id: principal.workspaceId });
  if (!row) throw notFound("Workspace");
  const provider = await providerOf(row.id);
  const own = provider ? null : await q.findWorkspaceProvider({ workspaceId: row.id });
  const domain = provider?.domain ?? own?.domain ?? null;
  const lockOut = domain ? (await q.listMembersBesideOwners({ workspaceId: row.id })).filter((m) => !m.viaSso && !emailInDomain(m.email, domain)).map(({ viaSso: _, ...m }) => m) : [];
  return {
    provider: provider
      ? { providerId: provider.providerId, source: "operator", name: provider.name, issuer: provider.issuer, domain: provider.domain, state: "active", redirectUri: returnUri(origin, provider.providerId), verification: null }
      : own
        ? toProviderDto(own, origin)
        : null,
    ssoRequired: row.ssoRequired,
    ssoDefaultRole: row.ssoDefaultRole as WorkspaceSsoDto["ssoDefaultRole"],
    recheckSeconds: recheckSeconds(),
    lockOut,
  };
}

/**
 * `PATCH /api/v1/workspace/sso` (owner): require SSO (only with an identity provider for this
 * workspace), the joining role. Turning the requirement on ends the members' sessions and revokes
 * their API tokens in the workspace (owners keep theirs); they come back through the IdP.
 */
export async function updateWorkspaceSso(principal: Principal, input: UpdateWorkspaceSso, origin: string): Promise<WorkspaceSsoDto> {
  const before = await getWorkspaceSso(principal, origin);
  if (input.ssoRequired && before.provider?.state !== "active") {
    throw new SwitchboardError("unprocessable", "This workspace has no active identity provider to require: register one and verify its domain, or the operator sets one up with SWITCHBOARD_SSO_* or SWITCHBOARD_SAML_* (README)");
  }
  await q.updateWorkspaceSso({ id: principal.workspaceId, ...input });
  // Password sessions and API tokens members got before would outlive the rule: they end now.
  const cut = input.ssoRequired && !before.ssoRequired ? await q.cutMemberPasswordAccess({ workspaceId: principal.workspaceId }) : null;
  if (cut) await Promise.all([forgetCache("tokenCache"), forgetCache("gatewayTokenCache")]);
  await audit(principal, {
    action: "workspace.sso_changed",
    target: { type: "workspace", id: principal.workspaceId },
    details: { before: { ssoRequired: before.ssoRequired, ssoDefaultRole: before.ssoDefaultRole }, after: input, ...(cut ? { membersSessionsEnded: cut.sessions, membersTokensRevoked: cut.tokens } : {}) },
  });
  return getWorkspaceSso(principal, origin);
}

/**
 * better-auth database hooks: a workspace owner's IdP creates no account and no session for an
 * email outside its verified domain (guard.ts); a password sign-in creates no session for a
 * member of a workspace that requires SSO (owners excepted). That runs after the password was
 * checked, so a wrong password still answers as any wrong password does and the rule tells
 * nobody who is a member.
 */
export const ssoDatabaseHooks = {
  user: {
    create: {
      before: async (user: { email?: string }, ctx: { path?: string; params?: Record<string, string | undefined> } | null) => {
        await assertOwnerIdpVouchesFor({ email: user.email, ctx });
      },
    },
  },
  session: {
    create: {
      before: async (session: { userId: string }, ctx: { path?: string; params?: Record<string, string | undefined> } | null) => {
        await assertOwnerIdpVouchesFor({ userId: session.userId, ctx });
        if (ctx?.path !== "/sign-in/email") return;
        const required = await q.requiresSsoFor({ userId: session.userId });
        if (!required) return;
        const name = operatorProviders().map((p) => p.name).join(" or ") || "your identity provider";
        throw new APIError("FORBIDDEN", { message: `${required.workspace.name} requires signing in with ${name}: use "Sign in with ${name}" instead of a password` });
      },
    },
  },
};
