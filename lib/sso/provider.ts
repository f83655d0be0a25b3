import "server-only";

/** How often (seconds) an SSO user's console session is re-checked against the IdP: the bound on a sign-out or removal there. */
export function recheckSeconds(): number {
  const n = Number(process.env.SWITCHBOARD_SSO_RECHECK_SECONDS ?? 300);
  return Number.isFinite(n) && n > 0 ? n : 300;
}

/**
 * The operator's OIDC identity provider, from the environment (README, "Sign-in"), or null:
 * SWITCHBOARD_SSO_ISSUER, SWITCHBOARD_SSO_CLIENT_ID and SWITCHBOARD_SSO_CLIENT_SECRET (the
 * console's client there), SWITCHBOARD_SSO_NAME (the button's "Sign in with …"),
 * SWITCHBOARD_SSO_DOMAIN (the email domain it vouches for) and SWITCHBOARD_SSO_WORKSPACE (the slug
 * of the workspace people join at their first sign-in; default the oldest workspace).
 */
export function operatorProvider() {
  const issuer = process.env.SWITCHBOARD_SSO_ISSUER?.replace(/\/+$/, "");
  const clientId = process.env.SWITCHBOARD_SSO_CLIENT_ID;
  if (!issuer || !clientId) return null;
  return {
    providerId: "sso",
    name: process.env.SWITCHBOARD_SSO_NAME || "SSO",
    issuer,
    clientId,
    clientSecret: process.env.SWITCHBOARD_SSO_CLIENT_SECRET || undefined,
    domain: process.env.SWITCHBOARD_SSO_DOMAIN ?? "",
    workspace: process.env.SWITCHBOARD_SSO_WORKSPACE || null,
  };
}
