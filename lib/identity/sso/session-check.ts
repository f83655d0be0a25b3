import "server-only";
import { getOAuth2Tokens, refreshAccessTokenRequest } from "better-auth/oauth2";
import { decodeJwt } from "jose";
import { decryptJson, encryptJson } from "@/lib/core/crypto";
import { discoverIdp, idpFetch } from "./discovery";
import { sameIssuer } from "./identity-tokens";
import { operatorProvider, operatorSamlProvider, recheckSeconds } from "./provider";
import * as q from "./queries";
import { openOidcConfig } from "./sealed-config";
import { piece } from "@/lib/core/runtime";

// When each user's next check is due, as this process last saw it: requests before then skip the database.
const due = () => piece("ssoChecks", () => new Map<string, number>());

/**
 * Whether an SSO user's console session still stands. At most every recheckSeconds() (one request
 * claims the check; the database holds when it was done, so every instance agrees) the console
 * refreshes the person's tokens at the IdP: an IdP that signed them out or removed them refuses,
 * and every console session of theirs ends. Users who never signed in with SSO are not checked.
 * A SAML sign-in cannot be refreshed: it stands until SWITCHBOARD_SAML_SESSION_SECONDS after it.
 */
export async function ssoSessionStands(userId: string): Promise<boolean> {
  if ((due().get(userId) ?? 0) > Date.now()) return true;
  if (due().size > 10_000) due().clear();
  const identity = await q.findSsoIdentity({ userId });
  // Not an SSO user: looked up again a minute later (an SSO sign-in meanwhile starts a fresh period anyway).
  if (!identity) return void due().set(userId, Date.now() + 60_000), true;
  if (!identity.refreshToken && identity.expiresAt && identity.expiresAt.getTime() <= Date.now()) return false; // ended: sign in again
  if (identity.issuer === operatorSamlProvider()?.issuer) return void due().set(userId, identity.expiresAt?.getTime() ?? 0), identity.expiresAt !== null;
  const next = (identity.checkedAt?.getTime() ?? 0) + recheckSeconds() * 1000;
  if (next > Date.now()) return void due().set(userId, next), true;
  if (!(await q.claimSsoCheck({ id: identity.id, checkedAt: identity.checkedAt }))) return true;
  const provider = await clientAt(identity.issuer);
  try {
    if (!provider || !identity.refreshToken) throw new Error("no refresh token: the IdP must be asked again");
    // The IdP is reached under the outbound policy (idpFetch): a workspace's, or the operator's issuer.
    const fetch = idpFetch({ workspaceId: provider.workspaceId, issuer: provider.issuer });
    const { tokenEndpoint, tokenEndpointAuthentication } = provider.tokenEndpoint
      ? { tokenEndpoint: provider.tokenEndpoint, tokenEndpointAuthentication: provider.tokenEndpointAuthentication }
      : await discoverIdp({ issuer: provider.issuer, fetch, workspaceId: provider.workspaceId });
    const request = await refreshAccessTokenRequest({
      refreshToken: decryptJson<string>(identity.refreshToken),
      tokenEndpoint,
      options: { clientId: provider.clientId, ...(provider.clientSecret ? { clientSecret: provider.clientSecret } : {}) },
      authentication: tokenEndpointAuthentication === "client_secret_post" ? "post" : "basic",
    });
    const res = await fetch(tokenEndpoint, { method: "POST", body: request.body.toString(), headers: request.headers, redirect: "manual", signal: AbortSignal.timeout(10_000) });
    const data = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (!res.ok || typeof data?.access_token !== "string") throw new Error(`the IdP refused the refresh (HTTP ${res.status})`);
    const tokens = getOAuth2Tokens(data);
    const exp = tokens.idToken ? decodeJwt(tokens.idToken).exp : undefined;
    await q.saveRefreshedIdentity({
      id: identity.id,
      ...(tokens.idToken ? { idToken: encryptJson(tokens.idToken), expiresAt: exp ? new Date(exp * 1000) : null } : {}),
      ...(tokens.refreshToken ? { refreshToken: encryptJson(tokens.refreshToken) } : {}),
    });
    due().set(userId, Date.now() + recheckSeconds() * 1000);
    return true;
  } catch {
    await q.endSsoSessions({ userId });
    due().delete(userId);
    return false;
  }
}

/** This process's next check of the person is due now (their SSO sign-in was just ended here). */
export function forgetSsoCheck(userId: string): void {
  due().delete(userId);
}

/** The console's client at the IdP that issued the identity: the operator's, or a workspace's verified provider. */
async function clientAt(issuer: string): Promise<{ issuer: string; workspaceId: string | null; clientId: string; clientSecret?: string; tokenEndpoint?: string; tokenEndpointAuthentication?: string } | null> {
  const operator = operatorProvider();
  if (operator && sameIssuer(operator.issuer, issuer)) return { ...operator, workspaceId: null };
  const row = await q.findProviderByIssuer({ issuer });
  if (!row?.oidcConfig) return null;
  // Stored sealed (sealed-config.ts): the client secret is opened here, as for the plugin.
  const config = JSON.parse(openOidcConfig(row.oidcConfig)!) as { clientId: string; clientSecret?: string; tokenEndpoint?: string; tokenEndpointAuthentication?: string };
  return { ...config, issuer: row.issuer, workspaceId: row.organizationId };
}

/** Whether the user has signed in with SSO: a member of a workspace requiring it is refused a session otherwise (a password one). */
export function signedInWithSso(userId: string): Promise<boolean> {
  return q.hasSsoIdentity({ userId });
}
