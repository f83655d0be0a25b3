import type { SnapshotDiffEntry } from "./index";
import { escapePointerToken, parsePointer } from "./variables";

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Deep equality of JSON values (key order does not matter; an absent key equals none). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a).filter((k) => a[k] !== undefined);
    return keys.length === Object.keys(b).filter((k) => b[k] !== undefined).length && keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** `contains`: a substring of a string, an element of an array, a (deep) subset of an object. */
export function containsValue(actual: unknown, part: unknown): boolean {
  if (typeof actual === "string") return typeof part === "string" && actual.includes(part);
  if (Array.isArray(actual)) return actual.some((v) => deepEqual(v, part) || (isObject(part) && isObject(v) && containsValue(v, part)));
  if (isObject(actual) && isObject(part)) {
    return Object.entries(part).every(([k, v]) => Object.hasOwn(actual, k) && (isObject(v) && isObject(actual[k]) ? containsValue(actual[k], v) : deepEqual(actual[k], v)));
  }
  return false;
}

/** A pointer pattern matches a path when each token is equal, or the pattern's token is `*`. */
function ignored(path: string[], patterns: string[][]): boolean {
  return patterns.some((p) => p.length === path.length && p.every((t, i) => t === "*" || t === path[i]));
}

/**
 * Where `actual` differs from `expected`, as JSON pointers; a path in `ignore` (or under it) is
 * skipped, and a `*` token in an ignore path matches any key or index.
 */
export function snapshotDiff(expected: unknown, actual: unknown, ignore: string[] = []): SnapshotDiffEntry[] {
  const patterns = ignore.map(parsePointer).filter((p): p is string[] => p !== null);
  const out: SnapshotDiffEntry[] = [];
  const walk = (e: unknown, a: unknown, path: string[]) => {
    if (ignored(path, patterns)) return;
    const pointer = path.map((t) => `/${escapePointerToken(t)}`).join("");
    if (Array.isArray(e) && Array.isArray(a)) {
      for (let i = 0; i < Math.max(e.length, a.length); i++) {
        const child = [...path, String(i)];
        if (ignored(child, patterns)) continue;
        if (i >= a.length) out.push({ path: `${pointer}/${i}`, expected: e[i], change: "removed" });
        else if (i >= e.length) out.push({ path: `${pointer}/${i}`, actual: a[i], change: "added" });
        else walk(e[i], a[i], child);
      }
      return;
    }
    if (isObject(e) && isObject(a)) {
      for (const key of new Set([...Object.keys(e), ...Object.keys(a)])) {
        const child = [...path, key];
        if (ignored(child, patterns)) continue;
        const inE = Object.hasOwn(e, key) && e[key] !== undefined;
        const inA = Object.hasOwn(a, key) && a[key] !== undefined;
        if (inE && !inA) out.push({ path: `${pointer}/${escapePointerToken(key)}`, expected: e[key], change: "removed" });
        else if (!inE && inA) out.push({ path: `${pointer}/${escapePointerToken(key)}`, actual: a[key], change: "added" });
        else if (inE && inA) walk(e[key], a[key], child);
      }
      return;
    }
    if (!deepEqual(e, a)) out.push({ path: pointer, expected: e, actual: a, change: "changed" });
  };
  walk(expected, actual, []);
  return out;
}
