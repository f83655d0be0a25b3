import { RE2JS } from "re2js";
import type { PolicyKind, PolicyRule, PolicySubject } from "./index";

// The parts of a rule's match that are plain data handling: JSON pointers, canonical JSON, globs,
// Cedar decimals, RE2. The match itself is Cedar's (./compile.ts); these feed its context.

/** RFC 6901 tokens of a pointer, or null when it is not one ("" is the whole document). */
export function parsePointer(pointer: string): string[] | null {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return null;
  const tokens = pointer.slice(1).split("/");
  if (tokens.some((t) => /~(?![01])/.test(t))) return null;
  return tokens.map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

const MISSING = Symbol("missing");

/** The value at a pointer: own properties and array indexes only (no prototype walk), or MISSING. */
export function valueAt(doc: unknown, tokens: string[]): unknown {
  let here: unknown = doc;
  for (const t of tokens) {
    if (Array.isArray(here)) {
      if (!/^(0|[1-9]\d*)$/.test(t) || Number(t) >= here.length) return MISSING;
      here = here[Number(t)];
    } else if (here !== null && typeof here === "object" && Object.hasOwn(here, t)) {
      here = (here as Record<string, unknown>)[t];
    } else return MISSING;
  }
  return here === undefined ? MISSING : here;
}

export const isMissing = (v: unknown): boolean => v === MISSING;

/** JSON with sorted object keys: equal values give equal strings, whatever their type. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const DECIMAL_MAX = 922337203685477;

/** The number as a Cedar decimal literal (at most 4 fraction digits, ±922337203685477.xxxx), or null. */
export function cedarDecimal(n: unknown): string | null {
  if (typeof n !== "number" || !Number.isFinite(n) || Math.abs(n) >= DECIMAL_MAX) return null;
  if (Number.isInteger(n)) return `${n}.0`;
  const text = String(n);
  const m = /^(-?\d+)\.(\d{1,4})$/.exec(text);
  return m ? text : null;
}

/**
 * A Cedar string literal. As a `like` pattern: `glob` keeps `*` the wildcard (nothing else is
 * one), `literal` makes every `*` a plain star.
 */
export function cedarString(text: string, mode: "plain" | "glob" | "literal" = "plain"): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (ch === "*") out += mode === "literal" ? "\\*" : ch;
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0) || code === 0x2028 || code === 0x2029) out += `\\u{${code.toString(16)}}`;
    else out += ch;
  }
  return `${out}"`;
}

/** `*` matches any run of characters; linear in practice (greedy with one backtrack point). */
export function globMatch(pattern: string, name: string): boolean {
  if (!pattern.includes("*")) return pattern === name;
  const parts = pattern.split("*");
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!name.startsWith(first) || name.length < first.length + last.length || !name.endsWith(last)) return false;
  let at = first.length;
  const end = name.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = name.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/** The names or globs a rule targets for a kind: null when it targets every name of that kind, [] when none. */
export function targetsOf(rule: PolicyRule, kind: PolicyKind): string[] | null {
  const lists = { tool: rule.tools, prompt: rule.prompts, resource: rule.resources };
  if (!rule.tools && !rule.prompts && !rule.resources) return null;
  return lists[kind] ?? [];
}

/** Whether the rule's target (servers and names, not who or arguments) covers the request. */
export function targets(rule: PolicyRule, serverId: string, kind: PolicyKind, name: string): boolean {
  if (rule.servers && !rule.servers.includes(serverId)) return false;
  const names = targetsOf(rule, kind);
  return names === null || names.some((p) => globMatch(p, name));
}

/** Whether the rule applies to the subject (any listed role, member, token, host or group; no lists: everyone). */
export function appliesTo(rule: PolicyRule, s: PolicySubject): boolean {
  const p = rule.principals;
  if (!p || !(p.roles?.length || p.members?.length || p.tokens?.length || p.hosts?.length || p.groups?.length)) return true;
  return Boolean(
    p.roles?.includes(s.role) ||
      (s.userId && p.members?.includes(s.userId)) ||
      (s.tokenId && p.tokens?.includes(s.tokenId)) ||
      (s.clientId && p.hosts?.includes(s.clientId)) ||
      p.groups?.some((g) => s.groups.includes(g)),
  );
}

/**
 * How specific a rule is (docs/governance.md): the most specific rule that matches decides, deny >
 * approve > allow among equals. Names: exact +8, glob +4, `*` 0 (the least specific name listed
 * counts); servers listed +2; who: a member, token or host +4, a group +2, a role +1 (the least
 * specific list counts); +1 per argument condition.
 */
export function specificity(rule: PolicyRule): number {
  let score = 0;
  const names = [...(rule.tools ?? []), ...(rule.prompts ?? []), ...(rule.resources ?? [])];
  if (names.length) score += Math.min(...names.map((n) => (n === "*" ? 0 : n.includes("*") ? 4 : 8)));
  if (rule.servers?.length) score += 2;
  const p = rule.principals ?? {};
  const who = [p.members?.length || p.tokens?.length || p.hosts?.length ? 4 : null, p.groups?.length ? 2 : null, p.roles?.length ? 1 : null].filter((n): n is number => n !== null);
  if (who.length) score += Math.min(...who);
  return score + (rule.when?.length ?? 0);
}

const regexCache = new Map<string, RE2JS | null>();

/** RE2 (linear time); null for a pattern that does not compile (schemas refuse those). */
export function re2(pattern: string): RE2JS | null {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    try {
      re = RE2JS.compile(pattern);
    } catch {
      re = null;
    }
    if (regexCache.size > 2000) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re;
}

/** `matches`: a string value at the pointer that the RE2 pattern finds in; anything else is false. */
export function regexMatches(value: unknown, pattern: unknown): boolean {
  if (typeof value !== "string" || typeof pattern !== "string") return false;
  return re2(pattern)?.matcher(value).find() ?? false;
}
