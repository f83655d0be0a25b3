/** Field names masked everywhere; a workspace's own list only adds to it. */
export const DEFAULT_REDACTION_KEYS = [
  "password",
  "passwd",
  "secret",
  "token",
  "private_key",
  "api_key",
  "authorization",
  "cookie",
  "client_secret",
  "access_token",
  "refresh_token",
] as const;

export const REDACTED = "[redacted]";

/**
 * OAuth fields that carry a secret, matched by exact name (not by substring: "token_endpoint",
 * "code_challenge" and "token_type" are what an OAuth trace is for). Header names go through the
 * default list, where substring matching is what we want.
 */
export const OAUTH_SECRET_FIELDS = [
  "code",
  "code_verifier",
  "state",
  "client_secret",
  "access_token",
  "refresh_token",
  "id_token",
  "token",
  "assertion",
  "client_assertion",
  "subject_token",
  "actor_token",
  "registration_access_token",
  "device_code",
  "password",
] as const;

/** Header names masked in an OAuth trace: the default list plus DPoP proofs. */
export const OAUTH_SECRET_HEADERS = [...DEFAULT_REDACTION_KEYS, "dpop"] as const;

function normalise(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, "");
}

/** Protocol fields that contain a listed name but never hold a secret (MCP progress and sampling, OAuth metadata). */
const NOT_SECRETS = new Set(["progressToken", "maxTokens", "token_type", "token_endpoint", "token_endpoint_auth_method", "token_endpoint_auth_methods_supported", "nextCursor"].map(normalise));

export interface MatchOptions {
  /** Match whole names only (still ignoring case, `-` and `_`). */
  exact?: boolean;
}

/** A predicate for field names, built once per list. */
export function redactionMatcher(keys: readonly string[] = DEFAULT_REDACTION_KEYS, opts: MatchOptions = {}): (field: string) => boolean {
  const needles = keys.map(normalise).filter(Boolean);
  return (field) => {
    const name = normalise(field);
    if (NOT_SECRETS.has(name)) return false;
    return needles.some((needle) => (opts.exact ? name === needle : name.includes(needle)));
  };
}

/** The workspace's list: the default list plus the names it stores (a JSON array); unreadable → the default. */
export function redactionKeys(stored: string | null | undefined): string[] {
  const keys: string[] = [...DEFAULT_REDACTION_KEYS];
  if (!stored) return keys;
  try {
    const parsed: unknown = JSON.parse(stored);
    if (Array.isArray(parsed)) for (const k of parsed) if (typeof k === "string" && !keys.includes(k)) keys.push(k);
  } catch {
    // Not JSON: the default list still holds.
  }
  return keys;
}
