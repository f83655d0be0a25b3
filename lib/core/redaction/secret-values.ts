import { REDACTED } from "./lists";

/** Shorter values are not masked as text: "admin" or "1234" would mask half of any page. */
const MIN_SECRET_LENGTH = 6;

/** Stored secret values to mask wherever they appear as text, longest first. */
export interface SecretValues {
  readonly values: readonly string[];
}

export const NO_SECRETS: SecretValues = { values: [] };

// "Bearer abc": the credential also counts on its own, as a tool would echo it.
const SCHEME = /^(?:bearer|basic|token|dpop)\s+(\S.*)$/i;

/**
 * The values to mask for a set of stored secrets (header values, tokens, client secrets): each
 * value of at least MIN_SECRET_LENGTH characters, its credential without an auth scheme, and its
 * JSON-escaped form (so it is found inside JSON text too).
 */
export function secretValues(stored: Iterable<string | null | undefined>): SecretValues {
  const found = new Set<string>();
  for (const raw of stored) {
    if (typeof raw !== "string") continue;
    const value = raw.trim();
    const credential = SCHEME.exec(value)?.[1]?.trim();
    for (const v of credential ? [value, credential] : [value]) {
      if (v.length < MIN_SECRET_LENGTH) continue;
      found.add(v);
      found.add(JSON.stringify(v).slice(1, -1));
    }
  }
  return { values: [...found].sort((a, b) => b.length - a.length) };
}

/** Several sets as one, longest first (a longer value must be masked before a value inside it). */
export function joinSecretValues(...sets: (SecretValues | undefined)[]): SecretValues {
  const given = sets.filter((set): set is SecretValues => !!set?.values.length);
  if (given.length <= 1) return given[0] ?? NO_SECRETS;
  return { values: [...new Set(given.flatMap((set) => set.values))].sort((a, b) => b.length - a.length) };
}

/** The text with every occurrence of a secret value replaced by "[redacted]" (the same string when none occurs). */
export function maskSecretValues(text: string, secrets: SecretValues): string {
  let out = text;
  for (const secret of secrets.values) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** Whether any secret value occurs in the text: a cheap test before a structured pass. */
export function mentionsSecretValue(text: string, secrets: SecretValues): boolean {
  return secrets.values.some((secret) => text.includes(secret));
}
