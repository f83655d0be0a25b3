import "server-only";
import { decodeJwt } from "jose";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { decryptJson, encryptJson } from "@/lib/core/crypto";
import { SwitchboardError } from "@/lib/core/errors";
import { forgetMemberGroups } from "./groups";
import { forgetSsoCheck } from "./session-check";
import type { IdentityTokenInfo } from "./index";
import type { SaveIdentityToken } from "./schemas";
import * as q from "./queries";

/** Issuers compare without a trailing slash (`https://idp.example.com/` is `https://idp.example.com`). */
export function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
}

/**
 * Keeps a member's ID token from an IdP, encrypted. Only its shape, issuer and expiry are read
 * here: the IdP checks its signature when it is exchanged, and refuses it if it is not its own.
 */
export async function storeIdentityToken({ userId, issuer, idToken, handedOver = false }: { userId: string; issuer: string; idToken: string; handedOver?: boolean }): Promise<IdentityTokenInfo> {
  let claims: { iss?: string; exp?: number };
  try {
    claims = decodeJwt(idToken);
  } catch {
    throw new SwitchboardError("bad_request", "This is not an ID token (a signed JWT from your identity provider)");
  }
  if (!claims.iss || !sameIssuer(claims.iss, issuer)) throw new SwitchboardError("bad_request", `This ID token was issued by ${claims.iss ?? "no one"}, not by ${issuer}`);
  const expiresAt = typeof claims.exp === "number" ? new Date(claims.exp * 1000) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw new SwitchboardError("bad_request", "This ID token has expired: sign in with your identity provider again");
  // An SSO sign-in's token is the IdP's word on the member's groups (./groups.ts): one handed over
  // unchecked must not replace it.
  if (handedOver && (await q.findIdentityToken({ userId, issuer: claims.iss }))?.viaSso) {
    throw new SwitchboardError("conflict", `Your ID token from ${claims.iss} comes from your sign-in with it: sign in with it again for a new one`);
  }
  const row = await q.upsertIdentityToken({ userId, issuer: claims.iss, idToken: encryptJson(idToken), expiresAt });
  forgetMemberGroups(userId);
  return { issuer: row.issuer, expiresAt: row.expiresAt?.toISOString() ?? null, updatedAt: row.updatedAt.toISOString() };
}

/** `PUT /api/v1/me/identity-tokens`: the caller hands over an ID token they hold (scripts, the conformance run). */
export async function saveIdentityToken(principal: Principal, input: SaveIdentityToken): Promise<{ identityToken: IdentityTokenInfo }> {
  const identityToken = await storeIdentityToken({ userId: principal.userId, ...input, handedOver: true });
  await audit(principal, { action: "identity_token.saved", target: { type: "user", id: principal.userId, name: principal.userName }, details: { issuer: identityToken.issuer } });
  return { identityToken };
}

export async function listIdentityTokens(principal: Principal): Promise<{ items: IdentityTokenInfo[] }> {
  const rows = await q.listIdentityTokens({ userId: principal.userId });
  return { items: rows.map((r) => ({ issuer: r.issuer, expiresAt: r.expiresAt?.toISOString() ?? null, updatedAt: r.updatedAt.toISOString() })) };
}

/** `DELETE /api/v1/me/identity-tokens`: forgets the caller's ID tokens (enterprise-managed servers then refuse until the next SSO sign-in). */
export async function forgetIdentityTokens(principal: Principal): Promise<{ deleted: number }> {
  const { userId } = principal;
  const handedOver = await q.deleteIdentityTokens({ userId, viaSso: false });
  // An SSO sign-in's token carries the person's groups: forgetting it ends the sign-in (its row stays,
  // emptied and expired, so the session check refuses), so nobody sheds a group, and a deny rule on it,
  // and stays signed in. The next SSO sign-in brings it back.
  const signIns = await q.forgetSsoSignIns({ userId });
  forgetMemberGroups(userId);
  if (signIns) forgetSsoCheck(userId);
  return { deleted: handedOver.count + signIns };
}

/** The member's current ID token from an IdP, or a plain-words refusal saying how to get one. */
export async function currentIdToken({ userId, issuer, serverName }: { userId: string; issuer: string; serverName: string }): Promise<string> {
  const row = (await q.findIdentityToken({ userId, issuer })) ?? (await q.findIdentityToken({ userId, issuer: issuer.replace(/\/+$/, "") }));
  if (!row || !row.idToken) throw noIdentity(serverName, issuer, "needs your sign-in with your organisation's identity provider");
  if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) throw noIdentity(serverName, issuer, "needs a fresh sign-in: your sign-in with your organisation's identity provider has expired");
  return decryptJson<string>(row.idToken);
}

function noIdentity(serverName: string, issuer: string, what: string): SwitchboardError {
  return new SwitchboardError("upstream_error", `"${serverName}" ${what} (${issuer}): sign out of the console and sign in again with it`, { kind: "unauthorized" });
}
