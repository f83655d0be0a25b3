// How one variable's text becomes a value. A reader throws a plain Error whose message says what
// the value must be; lib/core/config collects every variable's message into one ConfigError.

/** Reads a variable's (non-blank) text, or throws why it cannot be read. */
export type Read<T> = (text: string) => T;

/** A whole number of at least `min` (default 1); above `clamp` it is lowered to `clamp`. */
export function wholeNumber({ min = 1, max, clamp }: { min?: number; max?: number; clamp?: number } = {}): Read<number> {
  return (text) => {
    const n = Number(text.trim());
    if (!/^\d+$/.test(text.trim()) || n < min || (max !== undefined && n > max)) {
      throw new Error(`must be a whole number ${max === undefined ? `of at least ${min}` : `from ${min} to ${max}`} (got "${text}")`);
    }
    return clamp === undefined ? n : Math.min(n, clamp);
  };
}

/** `1` (true) or `0` (false). */
export const flag: Read<boolean> = (text) => {
  if (text.trim() === "1") return true;
  if (text.trim() === "0") return false;
  throw new Error(`must be 1 or 0 (got "${text}")`);
};

/** One of `values`, case and surrounding spaces ignored. */
export function oneOf<T extends string>(values: readonly T[]): Read<T> {
  return (text) => {
    const value = text.trim().toLowerCase();
    if ((values as readonly string[]).includes(value)) return value as T;
    throw new Error(`must be ${values.map((v) => `"${v}"`).join(" or ")} (got "${text}")`);
  };
}

/** An absolute URL with one of `protocols` (e.g. `["http:", "https:"]`); its text is kept as given, trimmed. The value is not echoed: it may hold a password. */
export function url(protocols?: readonly string[]): Read<string> {
  return (text) => {
    const value = text.trim();
    if (!URL.canParse(value)) throw new Error("must be an absolute URL");
    if (protocols && !protocols.includes(new URL(value).protocol)) throw new Error(`must be a ${protocols.map((p) => p.replace(":", "")).join(" or ")} URL`);
    return value;
  };
}

/** The text as given (secrets keep their spaces). */
export const text: Read<string> = (value) => value;

/** The text without surrounding spaces. */
export const trimmed: Read<string> = (value) => value.trim();

/** Comma-separated entries, trimmed, empty ones dropped, each passed through `each`. */
export function list(each: (entry: string) => string = (e) => e): Read<readonly string[]> {
  return (value) => Object.freeze(value.split(",").map((e) => each(e.trim())).filter(Boolean));
}
