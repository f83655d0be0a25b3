/**
 * One redaction function and one default list for everything that leaves a workspace or its
 * history: share links, exports. Field names match case-insensitively, ignoring `-` and `_`
 * ("API-Key", "api_key" and "apiKey" are the same name), and a listed name also matches any
 * field that contains it ("x_auth_token" matches "token").
 */
export const DEFAULT_REDACTION_KEYS = [
  "password",
  "secret",
  "token",
  "api_key",
  "authorization",
  "cookie",
  "client_secret",
  "access_token",
  "refresh_token",
] as const;

export const REDACTED = "[redacted]";

function normalise(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, "");
}

/** A predicate for field names, built once per list. */
export function redactionMatcher(keys: readonly string[] = DEFAULT_REDACTION_KEYS): (field: string) => boolean {
  const needles = keys.map(normalise).filter(Boolean);
  return (field) => {
    const name = normalise(field);
    return needles.some((needle) => name.includes(needle));
  };
}

export interface RedactionOutcome<T> {
  value: T;
  /** JSON paths of the masked fields, e.g. `arguments.password`, for the sharer's preview. */
  masked: string[];
}

/** Returns a deep copy of `value` with every field whose name matches replaced by "[redacted]". */
export function redact<T>(value: T, keys: readonly string[] = DEFAULT_REDACTION_KEYS): RedactionOutcome<T> {
  const matches = redactionMatcher(keys);
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
