import "server-only";
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { SwitchboardError } from "@/lib/core/errors";
import { assertIdpEndpointsAllowed, serverFetched } from "./discovery";
import * as q from "./queries";
import { samlBindingHook } from "./saml-binding";

/** The OIDC callback the plugin serves per provider; the shared one (no provider in the path) is closed (SSO_MANAGEMENT_PATHS). */
const CALLBACK = "/sso/callback/:providerId";

type HookContext = { path?: string; params?: Record<string, string | undefined> } | null | undefined;

/**
 * Whether `email` is of `domain`, exactly: a workspace verified example.com by DNS, which vouches
 * for people @example.com, not for @eng.example.com (a subdomain is a domain of its own to verify).
 */
export function emailInDomain(email: string, domain: string): boolean {
  const at = email.lastIndexOf("@");
  return at > 0 && email.slice(at + 1).toLowerCase() === domain.toLowerCase();
}

/** The owner-registered provider this request signs in through, or null (any other request, or the operator's IdP). */
async function ownerProviderOf(ctx: HookContext) {
  const providerId = ctx?.path === CALLBACK ? ctx.params?.providerId : undefined;
  return providerId ? q.findOwnerProvider({ providerId }) : null;
}

/**
 * A workspace owner's IdP vouches only for its verified domain: any other email it asserts creates
 * no account and no session (better-auth database hooks, before the row is written). Without this,
 * an owner's IdP could create the account of someone elsewhere, whose own sign-in would then find
 * the address taken. The operator's IdPs (SWITCHBOARD_SSO_*, SAML) are not limited here.
 */
export async function assertOwnerIdpVouchesFor({ email, userId, ctx }: { email?: string; userId?: string; ctx: HookContext }): Promise<void> {
  const provider = await ownerProviderOf(ctx);
  if (!provider) return;
  const address = email ?? (userId ? (await q.findUserEmail({ id: userId }))?.email : undefined) ?? "";
  if (emailInDomain(address, provider.domain)) return;
  throw new APIError("FORBIDDEN", {
    code: "email_outside_verified_domain",
    message: `This identity provider signs in only people with an email address at ${provider.domain}; it named ${address || "no address"}. Sign in with your own organisation's identity provider or your password.`,
  });
}

/**
 * Before the plugin's OIDC callback for a workspace owner's IdP: the endpoints it is about to fetch
 * (token, userinfo, JWKS) must pass the workspace's outbound policy today, as they did when the
 * provider was registered. A refusal ends the sign-in on the sign-in page with the rule. Before its
 * SAML assertion consumer service: the response must belong to this browser (saml-binding.ts).
 */
export function ssoGuardPlugin(): BetterAuthPlugin {
  return {
    id: "switchboard-sso-guard",
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === CALLBACK,
          handler: createAuthMiddleware(async (ctx) => {
            const provider = await ownerProviderOf(ctx);
            if (!provider?.organizationId || !provider.oidcConfig) return;
            const config = JSON.parse(provider.oidcConfig) as { tokenEndpoint?: string; userInfoEndpoint?: string; jwksEndpoint?: string };
            try {
              await assertIdpEndpointsAllowed({ workspaceId: provider.organizationId, endpoints: [provider.issuer, ...serverFetched(config)] });
            } catch (err) {
              const message = err instanceof SwitchboardError ? err.message : "The identity provider could not be checked";
              throw ctx.redirect(`/sign-in?${new URLSearchParams({ error: "idp_blocked_by_network_policy", error_description: message })}`);
            }
          }),
        },
        samlBindingHook,
      ],
    },
  };
}
