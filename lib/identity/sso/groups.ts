import "server-only";
import { decodeJwt } from "jose";
import { config } from "@/lib/core/config";
import { decryptJson } from "@/lib/core/crypto";
import { piece } from "@/lib/core/runtime";
import { groupsFromClaims, MAX_GROUPS } from "./group-claims";
import * as q from "./queries";

// A member's IdP groups, for policy rules that name groups (lib/domains/policies asks through the
// resolver lib/start registers). They are the groups claim of the ID tokens of the member's OIDC
// sign-ins as of each sign-in: a change at the IdP counts from the next sign-in (or the session
// re-check's refreshed token), within CACHE_MS of this process's cache. A SAML sign-in keeps no
// ID token, and a token handed over through the API is not the IdP's word: neither gives groups.

const CACHE_MS = 30_000;
const CACHE_MAX = 10_000;

interface GroupCache {
  /** Bumped by each forget: a read that began before one is not cached. */
  epoch: number;
  byUser: Map<string, { groups: string[]; at: number }>;
}

const cache = () => piece<GroupCache>("ssoGroups", () => ({ epoch: 0, byUser: new Map() }));

/** Drops the member's cached groups (a new ID token of theirs was stored). */
export function forgetMemberGroups(userId: string): void {
  const c = cache();
  c.epoch += 1;
  c.byUser.delete(userId);
}

/** The member's IdP groups: the union over their SSO sign-ins' ID tokens, from every issuer. */
export async function memberGroups(userId: string): Promise<string[]> {
  const c = cache();
  const now = Date.now();
  const hit = c.byUser.get(userId);
  if (hit && now - hit.at < CACHE_MS) return hit.groups;
  const epoch = c.epoch;
  const claimName = config().ssoGroupsClaim;
  const groups = new Set<string>();
  for (const row of await q.listSsoIdTokens({ userId })) {
    try {
      for (const g of groupsFromClaims(decodeJwt(decryptJson<string>(row.idToken)), claimName)) groups.add(g);
    } catch {
      // A token that no longer decrypts or decodes (a rotated key, a damaged row) names no groups.
    }
  }
  const found = [...groups].slice(0, MAX_GROUPS);
  if (epoch === c.epoch) {
    if (c.byUser.size >= CACHE_MAX) c.byUser.clear();
    c.byUser.set(userId, { groups: found, at: now });
  }
  return found;
}
