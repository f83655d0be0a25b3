import { DEFAULT_REDACTION_KEYS, REDACTED, redactionMatcher, type MatchOptions } from "./lists";
import { maskSecretValues, type SecretValues } from "./secret-values";

/** Text up to this size that holds a JSON object or array is parsed and redacted inside; longer text is left whole. */
const MAX_JSON_TEXT = 1024 * 1024;
/** JSON inside a string inside a string…: at most this many levels are opened. */
const MAX_JSON_NESTING = 3;
/** Objects nested deeper than this are masked whole rather than walked (hostile input must not exhaust the stack). */
export const MAX_DEPTH = 256;

interface RedactionOptions extends MatchOptions {
  /** Stored secret values (lib/core/redaction `secretValues`) replaced wherever they appear as text. */
  secrets?: SecretValues;
}

interface RedactionOutcome<T> {
  value: T;
  /** JSON paths of what was masked, e.g. `arguments.password` or `arguments.blob(json).token`, for the sharer's preview. */
  masked: string[];
}

/**
 * Returns a deep copy of `value` with every field whose name matches replaced by "[redacted]",
 * also inside strings that hold a JSON object or array (re-serialised, bounded in size and
 * nesting), and every stored secret value replaced wherever it appears in text.
 */
export function redact<T>(value: T, keys: readonly string[] = DEFAULT_REDACTION_KEYS, opts: RedactionOptions = {}): RedactionOutcome<T> {
  const matches = redactionMatcher(keys, opts);
  const secrets = opts.secrets?.values.length ? opts.secrets : null;
  const masked: string[] = [];

  const walk = (node: unknown, path: string, depth: number, nesting: number): unknown => {
    if (typeof node === "string") return text(node, path, depth, nesting);
    if (typeof node === "number" || typeof node === "bigint") {
      if (!secrets || maskSecretValues(String(node), secrets) === String(node)) return node;
      masked.push(path);
      return REDACTED;
    }
    if (!node || typeof node !== "object") return node;
    if (depth >= MAX_DEPTH) {
      masked.push(path);
      return REDACTED;
    }
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${path}[${i}]`, depth + 1, nesting));
    const out: Record<string, unknown> = {};
    for (const [rawKey, child] of Object.entries(node)) {
      const key = secrets ? maskSecretValues(rawKey, secrets) : rawKey;
      const childPath = path ? `${path}.${key}` : key;
      const hide = matches(rawKey) && child !== null && child !== undefined;
      if (hide || key !== rawKey) masked.push(childPath);
      const shown = hide ? REDACTED : walk(child, childPath, depth + 1, nesting);
      // A "__proto__" field must stay a field, not become the copy's prototype.
      if (key === "__proto__") Object.defineProperty(out, key, { value: shown, enumerable: true, writable: true, configurable: true });
      else out[key] = shown;
    }
    return out;
  };

  const text = (node: string, path: string, depth: number, nesting: number): string => {
    const json = nesting < MAX_JSON_NESTING ? parseJsonText(node) : undefined;
    if (json) {
      const before = masked.length;
      const inner = walk(json.value, `${path}(json)`, depth + 1, nesting + 1);
      if (masked.length > before) return JSON.stringify(inner, null, json.pretty ? 2 : undefined);
    }
    if (!secrets) return node;
    const out = maskSecretValues(node, secrets);
    if (out !== node) masked.push(path);
    return out;
  };

  return { value: walk(value, "", 0, 0) as T, masked };
}

/** The object or array a string holds as JSON, if it holds one and is small enough to open. */
function parseJsonText(text: string): { value: unknown; pretty: boolean } | undefined {
  if (text.length < 2 || text.length > MAX_JSON_TEXT) return undefined;
  const trimmed = text.trim();
  const first = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  if (!((first === "{" && last === "}") || (first === "[" && last === "]"))) return undefined;
  try {
    return { value: JSON.parse(trimmed) as unknown, pretty: trimmed.includes("\n") };
  } catch {
    return undefined;
  }
}
