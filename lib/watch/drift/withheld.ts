import { canonicalJson, itemKey } from "./classify";
import type { SnapshotData, WithheldItem } from "./index";

type Json = Record<string, unknown>;
type PinnedKind = WithheldItem["kind"];

/** What a model reads of each kind: a change to any of these withholds the item. Templates are not withheld (only scanned). */
const FIELDS: Record<PinnedKind, string[]> = {
  tool: ["title", "description", "inputSchema", "outputSchema", "annotations"],
  prompt: ["title", "description", "arguments"],
  resource: ["name", "title", "description", "mimeType"],
};
const LIST = { tool: "tools", prompt: "prompts", resource: "resources" } as const;
const LABEL: Record<PinnedKind, string> = { tool: "Tool", prompt: "Prompt", resource: "Resource" };
export const PINNED_KINDS: PinnedKind[] = ["tool", "prompt", "resource"];

/** The key a batch of withheld items is looked up by. */
export const withheldKey = (kind: PinnedKind, name: string) => `${kind}:${name}`;

/**
 * The items of `latest` whose definition differs from the approved one (fields named), and those
 * the approved snapshot did not have. Items removed since are not listed: there is nothing to serve.
 */
export function withheldItems(approved: SnapshotData, latest: SnapshotData): WithheldItem[] {
  const out: WithheldItem[] = [];
  for (const kind of PINNED_KINDS) {
    const before = new Map((approved[LIST[kind]] ?? []).map((item) => [itemKey(kind, item), item]));
    for (const item of latest[LIST[kind]] ?? []) {
      const name = itemKey(kind, item);
      const was = before.get(name);
      const fields = was ? FIELDS[kind].filter((f) => canonicalJson((was as Json)[f] ?? null) !== canonicalJson((item as Json)[f] ?? null)) : null;
      if (fields && fields.length === 0) continue;
      out.push({ kind, name, fields, reason: reason(kind, name, fields) });
    }
  }
  return out;
}

function reason(kind: PinnedKind, name: string, fields: string[] | null): string {
  const what = `${LABEL[kind]} "${name}"`;
  return fields
    ? `${what} changed since its definition was approved (${fields.join(", ")}); an admin must approve the new definition on the Changes tab`
    : `${what} was added since the definitions were approved; an admin must approve the new definition on the Changes tab`;
}
