import { defaultFilter } from "cmdk";
import type { PaletteItem } from "./use-palette-items";

/** Capabilities and servers before pages and actions, calls last: a call is a past use of a name. */
const GROUP_ORDER: Record<PaletteItem["group"], number> = {
  Tools: 0,
  Prompts: 1,
  Resources: 2,
  Servers: 3,
  Actions: 4,
  Pages: 5,
  "Recent calls": 6,
};

const WORD_START = /[\s\-_./:]+/;

/**
 * How well an item's names match: 4 exact, 3 prefix, 2 a word of the name starts with the query,
 * 1 the name contains the query's letters in order, 0.5 every word of the query appears in the
 * item's other text (detail, keywords), 0 no match. Descriptions never match letter by letter.
 */
export function matchTier(item: PaletteItem, query: string): number {
  const q = query.trim().toLowerCase();
  if (!q) return 0;
  const names = [item.label, ...(item.names ?? [])].map((n) => n.toLowerCase());
  if (names.some((n) => n === q)) return 4;
  if (names.some((n) => n.startsWith(q))) return 3;
  if (names.some((n) => n.split(WORD_START).some((word) => word.startsWith(q)))) return 2;
  if (names.some((n) => inOrder(n, q.replace(/\s+/g, "")))) return 1;
  const rest = [item.detail ?? "", item.group, ...(item.keywords ?? [])].join(" ").toLowerCase();
  return q.split(/\s+/).every((word) => rest.includes(word)) ? 0.5 : 0;
}

/** The items matching `query`, best first: calls after everything else, then by tier, group and closeness. */
export function rankItems(items: PaletteItem[], query: string): PaletteItem[] {
  const q = query.trim();
  return items
    .map((item, index) => ({ item, index, tier: matchTier(item, q), close: defaultFilter(item.label, q) }))
    .filter((r) => r.tier > 0)
    .sort((a, b) => isCall(a.item) - isCall(b.item) || b.tier - a.tier || GROUP_ORDER[a.item.group] - GROUP_ORDER[b.item.group] || b.close - a.close || a.index - b.index)
    .map((r) => r.item);
}

/** Every letter of `query` appears in `name`, in order (cmdk's own score also forgives letters out of order). */
function inOrder(name: string, query: string): boolean {
  let at = 0;
  for (const ch of query) {
    at = name.indexOf(ch, at) + 1;
    if (at === 0) return false;
  }
  return true;
}

const isCall = (item: PaletteItem) => (item.group === "Recent calls" ? 1 : 0);
