import "server-only";
import { readFileSync } from "node:fs";
import { config } from "@/lib/core/config";

/** How often (seconds) an SSO user's console session is re-checked against the IdP: the bound on a sign-out or removal there. */
export function recheckSeconds(): number {
  return config().ssoRecheckSeconds;
}

/**
 * The operator's OIDC identity provider, from the environment (README, "Sign-in"), or null:
 * SWITCHBOARD_SSO_ISSUER, SWITCHBOARD_SSO_CLIENT_ID and SWITCHBOARD_SSO_CLIENT_SECRET (the
 * console's client there), SWITCHBOARD_SSO_NAME (the button's "Sign in with …"),
 * SWITCHBOARD_SSO_DOMAIN (the email domain it vouches for) and SWITCHBOARD_SSO_WORKSPACE (the slug
 * of the workspace people join at their first sign-in; default the oldest workspace).
 */
export function operatorProvider() {
  const issuer = config().ssoIssuer;
  const clientId = config().ssoClientId;
  if (!issuer || !clientId) return null;
  return {
    providerId: "sso",
    name: config().ssoName,
    issuer,
    clientId,
    clientSecret: config().ssoClientSecret ?? undefined,
    domain: config().ssoDomain,
    workspace: config().ssoWorkspace,
  };
}

/**
 * The operator's SAML 2.0 identity provider, from the environment (README, "Sign-in"), or null:
 * SWITCHBOARD_SAML_ENTRY_POINT (the IdP's SSO URL), SWITCHBOARD_SAML_ISSUER (its entity ID),
 * SWITCHBOARD_SAML_CERT (its signing certificate: PEM, or the path of a PEM file),
 * SWITCHBOARD_SAML_NAME, SWITCHBOARD_SAML_SP_ENTITY_ID (the console's entity ID, the audience the
 * IdP names; default "switchboard") and SWITCHBOARD_SAML_SESSION_SECONDS (how long a SAML sign-in
 * lasts: nothing can refresh it). Domain and workspace are the OIDC provider's
 * (SWITCHBOARD_SSO_DOMAIN, SWITCHBOARD_SSO_WORKSPACE): the operator's IdPs serve one workspace.
 */
export function operatorSamlProvider() {
  const entryPoint = config().samlEntryPoint;
  const issuer = config().samlIssuer;
  const cert = config().samlCert;
  if (!entryPoint || !issuer || !cert) return null;
  return {
    providerId: "saml",
    name: config().samlName,
    entryPoint,
    issuer,
    cert: cert.startsWith("-----BEGIN") ? cert : readFileSync(cert, "utf8"),
    spEntityId: config().samlSpEntityId,
    domain: config().ssoDomain,
    workspace: config().ssoWorkspace,
    sessionSeconds: config().samlSessionSeconds,
  };
}

/** The operator's identity providers (OIDC, then SAML) as the sign-in page and the workspace settings name them. */
export function operatorProviders(): { providerId: string; name: string; issuer: string; domain: string; workspace: string | null }[] {
  return [operatorProvider(), operatorSamlProvider()].filter((p) => p !== null);
}
