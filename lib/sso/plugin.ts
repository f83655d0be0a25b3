import "server-only";
import { sso } from "@better-auth/sso";
import { auditAs } from "@/lib/audit/server";
import { encryptJson } from "@/lib/crypto";
import { storeIdentityToken } from "./identity-tokens";
import { operatorProvider } from "./provider";
import * as q from "./queries";

/**
 * better-auth's SSO plugin (@better-auth/sso) with the operator's OIDC provider
 * (SWITCHBOARD_SSO_*). Registering providers through the plugin's own endpoints is off
 * (providersLimit 0): only the operator names an identity provider. Every SSO sign-in makes the
 * person a member of the provider's workspace if they are not one (its default role), and keeps
 * their ID token and refresh token (encrypted) for enterprise-managed servers and the session re-check.
 */
export function ssoPlugins() {
  const provider = operatorProvider();
  if (!provider) return [];
  return [
    sso({
      providersLimit: 0,
      domainVerification: { enabled: true },
      provisionUserOnEveryLogin: true,
      defaultSSO: [
        {
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
        },
      ],
      provisionUser: async ({ user, token }) => {
        const workspace = await q.findSsoWorkspace({ slug: provider.workspace });
        if (workspace && (await q.joinWorkspace({ workspaceId: workspace.id, userId: user.id, role: workspace.ssoDefaultRole }))) {
          await auditAs(
            { workspaceId: workspace.id, type: "user", id: user.id, name: user.name },
            { action: "member.joined_by_sso", target: { type: "user", id: user.id, name: user.email }, details: { role: workspace.ssoDefaultRole, issuer: provider.issuer } },
          );
        }
        if (token?.idToken) {
          const stored = await storeIdentityToken({ userId: user.id, issuer: provider.issuer, idToken: token.idToken });
          await q.markSsoIdentity({ userId: user.id, issuer: stored.issuer, refreshToken: token.refreshToken ? encryptJson(token.refreshToken) : null });
        }
      },
    }),
  ];
}
