/** Helpers for paths into JSON values: JSON Pointers (as ajv reports them) and `$.a[0]["b c"]` paths. */

export type Segment = string | number;

export function toPointer(segments: Segment[]): string {
  return segments.reduce<string>((pointer, s) => childPointer(pointer, s), "");
}

/** The pointer of `key` inside the node at `pointer` (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function childPointer(pointer: string, key: Segment): string {
  return `${pointer}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/** `$.items[0].name`, with bracket quotes for keys that are not identifiers. */
export function toJsonPath(segments: Segment[]): string {
  return segments.reduce<string>((path, s) => (typeof s === "number" ? `${path}[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `${path}.${s}` : `${path}[${JSON.stringify(s)}]`), "$");
}

/** Every prefix of a pointer, root ("") included: "/a/0" → ["", "/a", "/a/0"]. */
export function pointerAncestors(pointer: string): string[] {
  const parts = pointer.split("/").slice(1);
  return ["", ...parts.map((_, i) => `/${parts.slice(0, i + 1).join("/")}`)];
}

const MAX_MATCHES = 1000;

/**
 * Pointers of the nodes whose key or scalar value contains `query` (case-insensitive), at most
 * 1000, plus every ancestor of a match (so the tree can open the way to it).
 */
export function searchJson(value: unknown, query: string): { matches: Set<string>; open: Set<string> } {
  const matches = new Set<string>();
  const open = new Set<string>();
  const q = query.trim().toLowerCase();
  if (!q) return { matches, open };
  // Depth-first, stopping at MAX_MATCHES, so only as much of a huge value is visited as needed.
  const visit = (node: unknown, pointer: string, key: string | null, depth: number): void => {
    const scalar = node === null || typeof node !== "object";
    if ((key !== null && key.toLowerCase().includes(q)) || (scalar && String(node).toLowerCase().includes(q))) {
      matches.add(pointer);
      for (const a of pointerAncestors(pointer).slice(0, -1)) open.add(a);
    }
    if (scalar || depth > 200) return;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length && matches.size < MAX_MATCHES; i++) visit(node[i], childPointer(pointer, i), null, depth + 1);
    } else {
      for (const k in node as Record<string, unknown>) {
        if (matches.size >= MAX_MATCHES) break;
        visit((node as Record<string, unknown>)[k], childPointer(pointer, k), k, depth + 1);
      }
    }
  };
  visit(value, "", null, 0);
  return { matches, open };
}
