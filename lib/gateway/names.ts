// Names on the aggregated endpoint /mcp/<workspace-slug> (docs/gateway.md, "The aggregated endpoint").

/** Separates a server's prefix from its tool or prompt name: `<prefix>__<name>`. */
const SEPARATOR = "__";
const MAX_NAME = 128;
const MAX_PREFIX = 64;

/**
 * The prefix of each server, in the order given (server names sorted by code unit): the name with
 * every character outside `A-Z a-z 0-9 _ - .` replaced by `_`, runs of `_` collapsed to one (so
 * that a prefix never contains the separator), leading and trailing `_` removed, at most 64
 * characters, `server` when nothing is left. A prefix already taken by an earlier server gets the
 * smallest free suffix `_2`, `_3`, …
 */
export function serverPrefixes(names: string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const base = normalise(name, MAX_PREFIX).replace(/_+/g, "_").replace(/^_+|_+$/g, "") || "server";
    let prefix = base;
    for (let n = 2; taken.has(prefix); n++) prefix = `${base}_${n}`;
    taken.add(prefix);
    return prefix;
  });
}

/**
 * `<prefix>__<name>` for each of one server's names, in its own order: the name normalised like a
 * prefix (runs of `_` kept), the whole cut at 128 characters; a result already taken by an
 * earlier name of the same server gets the smallest free suffix `_2`, `_3`, …
 */
export function namespaced(prefix: string, names: string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const base = `${prefix}${SEPARATOR}${normalise(name, MAX_NAME)}`.slice(0, MAX_NAME);
    let full = base;
    for (let n = 2; taken.has(full); n++) full = `${base.slice(0, MAX_NAME - String(n).length - 1)}_${n}`;
    taken.add(full);
    return full;
  });
}

function normalise(name: string, max: number): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, max);
}

/** Server names in the one order prefixes and merged lists follow. */
export function byName<T extends { name: string }>(items: T[]): T[] {
  return [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
