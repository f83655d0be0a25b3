import "server-only";
import { sso } from "@better-auth/sso";
import { auditAs } from "@/lib/core/audit/server";
import { encryptJson } from "@/lib/core/crypto";
import { existingPiece } from "@/lib/core/runtime";
import { emailInDomain, ssoGuardPlugin } from "./guard";
import { storeIdentityToken } from "./identity-tokens";
import { operatorProvider, operatorProviders, operatorSamlProvider } from "./provider";
import * as q from "./queries";

/**
 * The plugin's own endpoints that manage providers: closed to the public (better-auth's
 * disabledPaths). Workspace owners register and verify theirs through /api/v1/workspace/sso/provider.
 * The shared OIDC callback (`/sso/callback`, for a plugin-wide redirect URI the console does not
 * use) is closed too: every sign-in comes back to its provider's own `/sso/callback/<providerId>`.
 */
export const SSO_MANAGEMENT_PATHS = ["/sso/callback", "/sso/register", "/sso/providers", "/sso/get-provider", "/sso/update-provider", "/sso/delete-provider", "/sso/request-domain-verification", "/sso/verify-domain"];

/**
 * better-auth's SSO plugin (@better-auth/sso) with the operator's OIDC provider
 * (SWITCHBOARD_SSO_*) and SAML 2.0 provider (SWITCHBOARD_SAML_*: the plugin and samlify check the
 * response's signature against the configured certificate, its audience, recipient, times and
 * InResponseTo, and refuse a replayed assertion), and the providers workspace owners registered (its sso_provider table; a
 * sign-in through one whose domain is not verified is refused by the plugin). Every SSO sign-in
 * makes the person a member of the provider's workspace if they are not one (its default role;
 * for a workspace's own provider only with an email in its verified domain), and keeps their ID
 * token and refresh token (encrypted) for enterprise-managed servers and the session re-check. A
 * SAML sign-in has neither: it is kept as an SSO identity with no token that ends after
 * SWITCHBOARD_SAML_SESSION_SECONDS (session-check.ts).
 */
/** lib/team/members' writes (installed by lib/start: lib/team/members sits above this domain). */
function memberWrites(): { join(input: { workspaceId: string; userId: string; role: string }): Promise<boolean> } {
  const writes = existingPiece<ReturnType<typeof memberWrites>>("memberWrites");
  if (!writes) throw new Error("lib/team/members' writes are not installed (lib/start installs them)");
  return writes;
}

export function ssoPlugins() {
  const provider = operatorProvider();
  const saml = operatorSamlProvider();
  return [
    sso({
      providersLimit: 0,
      domainVerification: { enabled: true },
      provisionUserOnEveryLogin: true,
      defaultSSO: [
        ...(!provider ? [] : [{
          providerId: provider.providerId,
          domain: provider.domain,
          oidcConfig: {
            issuer: provider.issuer,
            pkce: true,
            clientId: provider.clientId,
            ...(provider.clientSecret ? { clientSecret: provider.clientSecret } : {}),
            discoveryEndpoint: `${provider.issuer}/.well-known/openid-configuration`,
            scopes: ["openid", "email", "profile", "offline_access"],
          },
        }]),
        ...(!saml ? [] : [{
          providerId: saml.providerId,
          domain: saml.domain,
          samlConfig: {
            issuer: saml.spEntityId,
            entryPoint: saml.entryPoint,
            cert: saml.cert,
            audience: saml.spEntityId,
            wantAssertionsSigned: true,
            idpMetadata: { entityID: saml.issuer },
          },
        }]),
      ],
      provisionUser: async ({ user, token, provider: used }) => {
        const own = used.organizationId ? { workspaceId: used.organizationId, domain: used.domain.toLowerCase() } : null;
        const operator = own ? null : operatorProviders().find((p) => p.providerId === used.providerId);
        if (!own && !operator) return;
        const issuer = own ? used.issuer : operator!.issuer;
        const inDomain = !own || emailInDomain(user.email, own.domain);
        const workspace = own ? await q.findWorkspaceById({ id: own.workspaceId }) : await q.findSsoWorkspace({ slug: operator!.workspace });
        if (workspace && inDomain && (await memberWrites().join({ workspaceId: workspace.id, userId: user.id, role: workspace.ssoDefaultRole }))) {
          await auditAs(
            { workspaceId: workspace.id, type: "user", id: user.id, name: user.name },
            { action: "member.joined_by_sso", target: { type: "user", id: user.id, name: user.email }, details: { role: workspace.ssoDefaultRole, issuer } },
          );
        }
        if (token?.idToken) {
          const stored = await storeIdentityToken({ userId: user.id, issuer, idToken: token.idToken });
          await q.markSsoIdentity({ userId: user.id, issuer: stored.issuer, refreshToken: token.refreshToken ? encryptJson(token.refreshToken) : null });
        } else if (saml && used.providerId === saml.providerId) {
          await q.markSamlSignIn({ userId: user.id, issuer: saml.issuer, expiresAt: new Date(Date.now() + saml.sessionSeconds * 1000) });
        }
      },
    }),
    ssoGuardPlugin(),
  ];
}
