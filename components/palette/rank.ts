import { defaultFilter } from "cmdk";
import type { PaletteItem } from "./use-palette-items";

/** Capabilities and servers before pages and actions, calls last: a call is a past use of a name. */
const GROUP_ORDER: Record<PaletteItem["group"], number> = {
  Tools: 0,
  Prompts: 1,
  Resources: 2,
  Servers: 3,
  Collections: 4,
  Monitors: 5,
  Environments: 6,
  Actions: 7,
  Pages: 8,
  Runs: 9,
  "Recent calls": 10,
};

const WORD_BREAK = /[\s\-_./:#?&=()[\],;@]+/;
const words = (text: string) => text.toLowerCase().split(WORD_BREAK).filter(Boolean);

/**
 * How well an item matches: 4 its label or another name is the query, 3 one starts with it, 2 each
 * word of the query starts a word of one ("theme dark" → "Theme: Dark"), 1 the label's letters contain the query in order from a word start
 * (a short label only: "dbd" finds Dashboard, a long URI finds everything), 0.5 every word of the
 * query is a whole word of the item's other text (detail, description, keywords), 0 no match.
 */
export function matchTier(item: PaletteItem, query: string): number {
  const q = query.trim().toLowerCase();
  if (!q) return 0;
  const names = [item.label, ...(item.names ?? [])].map((n) => n.toLowerCase());
  if (names.some((n) => n === q)) return 4;
  if (names.some((n) => n.startsWith(q))) return 3;
  const wanted = words(q);
  if (wanted.length > 0 && names.some((n) => startsWords(words(n), wanted))) return 2;
  if (q.length >= 2 && !/\s/.test(q) && abbreviates(item.label.toLowerCase(), q)) return 1;
  const rest = new Set(words([item.detail ?? "", ...(item.keywords ?? [])].join(" ")));
  return wanted.length > 0 && wanted.every((word) => rest.has(word)) ? 0.5 : 0;
}

/** The items matching `query`, best first: calls and runs after everything else, then by tier, group and closeness. */
export function rankItems(items: PaletteItem[], query: string): PaletteItem[] {
  const q = query.trim();
  return items
    .map((item, index) => ({ item, index, tier: matchTier(item, q), close: defaultFilter(item.label, q) }))
    .filter((r) => r.tier > 0)
    .sort((a, b) => isPast(a.item) - isPast(b.item) || b.tier - a.tier || GROUP_ORDER[a.item.group] - GROUP_ORDER[b.item.group] || b.close - a.close || a.index - b.index)
    .map((r) => r.item);
}

/** Each wanted word starts one of `have`. */
const startsWords = (have: string[], wanted: string[]) => wanted.every((w) => have.some((word) => word.startsWith(w)));

const SHORT_LABEL = 40;

/** `query`'s letters appear in order in a short `label`, the first one at a word start. */
function abbreviates(label: string, query: string): boolean {
  if (label.length > SHORT_LABEL) return false;
  for (let start = 0; start < label.length; start++) {
    if (label[start] !== query[0] || (start > 0 && !WORD_BREAK.test(label[start - 1]!))) continue;
    let at = start + 1;
    let ok = true;
    for (const ch of query.slice(1)) {
      at = label.indexOf(ch, at) + 1;
      if (at === 0) {
        ok = false;
        break;
      }
    }
    if (ok) return true;
  }
  return false;
}

const isPast = (item: PaletteItem) => (item.group === "Recent calls" || item.group === "Runs" ? 1 : 0);
