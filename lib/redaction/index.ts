/**
 * One redaction function and one default list for everything that leaves a workspace or its
 * history: share links, exports. Field names match case-insensitively, ignoring `-` and `_`
 * ("API-Key", "api_key" and "apiKey" are the same name), and a listed name also matches any
 * field that contains it ("x_auth_token" matches "token").
 */
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

/** A predicate for field names, built once per list. */
export function redactionMatcher(keys: readonly string[] = DEFAULT_REDACTION_KEYS, opts: RedactionOptions = {}): (field: string) => boolean {
  const needles = keys.map(normalise).filter(Boolean);
  return (field) => {
    const name = normalise(field);
    if (NOT_SECRETS.has(name)) return false;
    return needles.some((needle) => (opts.exact ? name === needle : name.includes(needle)));
  };
}

export interface RedactionOptions {
  /** Match whole names only (still ignoring case, `-` and `_`). */
  exact?: boolean;
}

export interface RedactionOutcome<T> {
  value: T;
  /** JSON paths of the masked fields, e.g. `arguments.password`, for the sharer's preview. */
  masked: string[];
}

/** Returns a deep copy of `value` with every field whose name matches replaced by "[redacted]". */
export function redact<T>(value: T, keys: readonly string[] = DEFAULT_REDACTION_KEYS, opts: RedactionOptions = {}): RedactionOutcome<T> {
  const matches = redactionMatcher(keys, opts);
  const masked: string[] = [];
  const walk = (node: unknown, path: string): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${path}[${i}]`));
    if (node && typeof node === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node)) {
        const childPath = path ? `${path}.${key}` : key;
        if (matches(key) && child !== null && child !== undefined) {
          out[key] = REDACTED;
          masked.push(childPath);
        } else out[key] = walk(child, childPath);
      }
      return out;
    }
    return node;
  };
  return { value: walk(value, "") as T, masked };
}

/** The workspace's list: its own (stored as JSON) or the default. */
export function redactionKeys(stored: string | null | undefined): string[] {
  if (!stored) return [...DEFAULT_REDACTION_KEYS];
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === "string") : [...DEFAULT_REDACTION_KEYS];
  } catch {
    return [...DEFAULT_REDACTION_KEYS];
  }
}
