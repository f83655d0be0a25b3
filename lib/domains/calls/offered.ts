import "server-only";
import type { Principal } from "@/lib/core/access";
import type { PolicyKind, PolicySubject } from "@/lib/domains/policies";
import { listable } from "@/lib/domains/policies/server";
import type { CapabilityKind } from "@/lib/domains/servers";
import { listCapability } from "@/lib/domains/servers/server";
import { apiSubject } from "./govern";

// "Listing follows calling" (docs/governance.md): a list shows only what its reader may call, and
// says which items need a person's approval. The API's lists here; the gateway's through the same
// offeredItems (lib/gateway/gate.ts).

/** `_meta` key of an item an `approve` rule governs. */
export const APPROVAL_META = "switchboard/approval";
export const APPROVAL_NOTE = " (needs a person's approval in Switchboard)";

/** Which kind of governed item each list holds (resource templates are not governed by name). */
export const LIST_POLICY_KIND: Partial<Record<CapabilityKind, PolicyKind>> = { tools: "tool", prompts: "prompt", resources: "resource" };

type Item = Record<string, unknown>;

/** The name a rule matches: a tool's or prompt's name, a resource's URI. */
function nameOf(kind: PolicyKind, item: Item): string | null {
  const value = kind === "resource" ? item.uri : item.name;
  return typeof value === "string" ? value : null;
}

/**
 * One server's list items as `subject` is offered them: without those listable() leaves out, those
 * that need approval marked (`_meta["switchboard/approval"]`, the description says so). The same
 * array when nothing changes.
 */
export async function offeredItems<T>(subject: PolicySubject, serverId: string, kind: PolicyKind, items: T[]): Promise<T[]> {
  if (!items.length) return items;
  const names = (items as Item[]).map((item) => nameOf(kind, item)).filter((n): n is string => n !== null);
  const shown = await listable(subject, serverId, kind, names, items as Item[]);
  let changed = false;
  const out: T[] = [];
  for (const item of items as Item[]) {
    const name = nameOf(kind, item);
    const verdict = name === null ? undefined : shown.get(name);
    if (verdict === "allow") out.push(item as T);
    else if (verdict === "approve") out.push(markApproval(item) as T);
    if (verdict !== "allow") changed = true;
  }
  return changed ? out : items;
}

function markApproval(item: Item): Item {
  const meta = item._meta && typeof item._meta === "object" ? (item._meta as Item) : {};
  const description = typeof item.description === "string" ? item.description : "";
  return { ...item, description: `${description}${APPROVAL_NOTE}`.trim(), _meta: { ...meta, [APPROVAL_META]: true } };
}

/** GET /api/v1/servers/:id/{tools,prompts,resources,resource-templates}: the server's list as the caller may call it. */
export async function listOffered(principal: Principal, serverId: string, kind: CapabilityKind): Promise<unknown[]> {
  const items = await listCapability(principal, serverId, kind);
  const governed = LIST_POLICY_KIND[kind];
  return governed ? offeredItems(apiSubject(principal), serverId, governed, items) : items;
}
