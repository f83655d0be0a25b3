import "server-only";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { decryptJson } from "@/lib/core/crypto";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { publish } from "@/lib/core/events/server";
import { cacheEpoch } from "@/lib/core/runtime";
import { getServer, setApprovedSnapshot } from "@/lib/domains/servers/server";
import { raiseAlert } from "@/lib/watch/alerts/server";
import { canonicalJson, itemKey } from "./classify";
import type { PinningDto, SnapshotData, WithheldItem } from "./index";
import * as q from "./queries";
import { driftState, takeSnapshot } from "./snapshots";
import { PINNED_KINDS, withheldItems, withheldKey } from "./withheld";

// Every call and every listing asks: the answer is kept per server, keyed by its pinning, its
// approved and its latest snapshot. A snapshot or an approval here forgets it at once; any server
// write (pinning, approving) on any instance moves the server cache's epoch; a snapshot another
// instance took is seen at the next re-check.
const RECHECK_MS = 2_000;

export interface PinEntry {
  key: string;
  items: WithheldItem[];
  byKey: Map<string, string>;
  checkedAt: number;
  epoch: number;
  /** A pinned server's approved lists (null: not pinned, or nothing approved yet). */
  approved: SnapshotData | null;
  /** When a listing last asked for a snapshot of a change it saw. */
  snapshotAskedAt?: number;
}

const NOTHING = (epoch: number, key: string): PinEntry => ({ key, items: [], byKey: new Map(), checkedAt: Date.now(), epoch, approved: null });
const EMPTY: SnapshotData = { tools: [], prompts: [], resources: [], templates: [] };
const LIST = { tool: "tools", prompt: "prompts", resource: "resources" } as const;

/** Why a host may not see or call this item of a pinned server (null: served). */
export async function withheldDefinition(serverId: string, kind: WithheldItem["kind"], name: string): Promise<string | null> {
  return (await entry(serverId)).byKey.get(withheldKey(kind, name)) ?? null;
}

/** Every withheld item of a server, keyed `${kind}:${name}` (empty: not pinned, or nothing changed): the listing's form. */
export async function withheldDefinitions(serverId: string): Promise<ReadonlyMap<string, string>> {
  return (await entry(serverId)).byKey;
}

/** Drops what is known of a server's withheld items (a snapshot or an approval here). */
export function forgetPinning(serverId: string): void {
  driftState().pins.delete(serverId);
}

async function entry(serverId: string): Promise<PinEntry> {
  const { pins: entries, pinLoads: loading } = driftState();
  const cached = entries.get(serverId);
  const epoch = cacheEpoch("serverCache");
  if (cached && cached.epoch === epoch && Date.now() - cached.checkedAt < RECHECK_MS) return cached;
  const pending = loading.get(serverId);
  if (pending) return pending;
  const load = compute(serverId, cached, epoch).finally(() => loading.delete(serverId));
  loading.set(serverId, load);
  const fresh = await load;
  if (entries.size > 10_000) entries.clear();
  entries.set(serverId, fresh);
  return fresh;
}

async function compute(serverId: string, cached: PinEntry | undefined, epoch: number): Promise<PinEntry> {
  const row = await q.pinState({ serverId });
  const latestId = row?.capabilitySnapshots[0]?.id ?? null;
  const key = `${row?.pinDefinitions ?? false}:${row?.approvedSnapshotId ?? ""}:${latestId ?? ""}`;
  if (cached?.key === key) return { ...cached, checkedAt: Date.now(), epoch };
  if (!row?.pinDefinitions || !row.approvedSnapshotId || !latestId) return NOTHING(epoch, key);
  const { approved, items } = await withheldBetween(serverId, row.approvedSnapshotId, latestId);
  return { key, items, byKey: new Map(items.map((i) => [withheldKey(i.kind, i.name), i.reason])), checkedAt: Date.now(), epoch, approved };
}

async function withheldBetween(serverId: string, approvedId: string, latestId: string): Promise<{ approved: SnapshotData; items: WithheldItem[] }> {
  const [approvedRow, latest] = await Promise.all([q.snapshotData({ serverId, id: approvedId }), latestId === approvedId ? null : q.snapshotData({ serverId, id: latestId })]);
  // An approved snapshot that is gone approves nothing: every item waits for an admin.
  const approved = approvedRow ? (JSON.parse(approvedRow.data) as SnapshotData) : EMPTY;
  return { approved, items: latest ? withheldItems(approved, JSON.parse(latest.data) as SnapshotData) : [] };
}

/**
 * For a listing with the live definitions at hand (names → why): the items of a pinned server that
 * the latest snapshot withholds, and those whose definition as served now differs from the approved
 * one — a change on a live connection that no snapshot has seen yet.
 */
export async function withheldServed(serverId: string, kind: WithheldItem["kind"], served: Record<string, unknown>[]): Promise<Map<string, string>> {
  const pin = await entry(serverId);
  const out = new Map<string, string>();
  for (const [key, why] of pin.byKey) if (key.startsWith(`${kind}:`)) out.set(key.slice(kind.length + 1), why);
  if (!pin.approved) return out;
  const now: SnapshotData = { ...EMPTY, [LIST[kind]]: served };
  let unseen = false;
  for (const w of withheldItems(pin.approved, now)) {
    if (out.has(w.name)) continue;
    out.set(w.name, w.reason);
    // Calls are refused too until a snapshot (taken now) is approved: this entry lasts until the next snapshot or approval.
    pin.byKey.set(withheldKey(w.kind, w.name), w.reason);
    unseen = true;
  }
  if (unseen) snapshotChanged(serverId, pin);
  return out;
}

/** A snapshot for the Changes tab of what a listing saw change, through a live connection here; one at a time per server, at most every 10 s. */
function snapshotChanged(serverId: string, pin: PinEntry): void {
  if (pin.snapshotAskedAt && Date.now() - pin.snapshotAskedAt < 10_000) return;
  const session = [...(driftState().live.get(serverId) ?? [])].find((s) => s.live());
  if (!session) return;
  pin.snapshotAskedAt = Date.now();
  void takeSnapshot({ ...session, source: "changed" });
}

/** `pinning` of the history: whether the server is pinned, which snapshot is approved, what is withheld. */
export async function pinningStatus(principal: Principal, serverId: string): Promise<PinningDto> {
  const server = await getServer(principal, serverId);
  const row = await q.pinState({ serverId: server.id });
  const latestSnapshotId = row?.capabilitySnapshots[0]?.id ?? null;
  const approvedSnapshotId = row?.approvedSnapshotId ?? null;
  const withheld = row?.pinDefinitions ? (await entry(server.id)).items : [];
  return { pinned: row?.pinDefinitions ?? false, approvedSnapshotId, latestSnapshotId, withheld };
}

/** POST /api/v1/servers/:id/capabilities/approve: the snapshot's definitions are served from now on. */
export async function approveSnapshot(principal: Principal, serverId: string, snapshotId: string): Promise<PinningDto> {
  const server = await getServer(principal, serverId);
  const snapshot = await q.findWorkspaceSnapshot({ workspaceId: principal.workspaceId, id: snapshotId });
  if (!snapshot) throw notFound("Snapshot");
  if (snapshot.serverId !== server.id) throw new SwitchboardError("unprocessable", `Snapshot ${snapshotId} is not a snapshot of "${server.name}"`);
  const before = await pinningStatus(principal, server.id);
  await setApprovedSnapshot({ workspaceId: principal.workspaceId, id: server.id, snapshotId });
  forgetPinning(server.id);
  await audit(principal, {
    action: "server.definitions_approved",
    target: { type: "server", id: server.id, name: server.name },
    details: { snapshotId, previous: before.approvedSnapshotId, released: before.withheld.map((w) => withheldKey(w.kind, w.name)).slice(0, 50) },
  });
  // Hosts' and the console's lists change: what was withheld is served.
  publish(principal.workspaceId, { type: "capabilities", serverId: server.id, snapshotId });
  for (const kind of ["tools", "prompts", "resources"] as const) publish(principal.workspaceId, { type: "list_changed", serverId: server.id, kind });
  return pinningStatus(principal, server.id);
}

/**
 * After drift stored a snapshot of a server: a pinned server without an approved snapshot approves
 * this first one; one with items newly withheld by it (changed or added in this very snapshot)
 * raises one alert, to the server's capability watch targets, else in the console only.
 */
export async function afterSnapshot(input: { workspaceId: string; serverId: string; serverName: string; snapshotId: string; previous: SnapshotData | null; data: SnapshotData }): Promise<void> {
  const { workspaceId, serverId, serverName, snapshotId, previous, data } = input;
  forgetPinning(serverId);
  const row = await q.pinState({ serverId });
  if (!row?.pinDefinitions) return;
  if (!row.approvedSnapshotId) {
    await setApprovedSnapshot({ workspaceId, id: serverId, snapshotId, onlyIfUnset: true });
    return;
  }
  const { items: withheld } = await withheldBetween(serverId, row.approvedSnapshotId, snapshotId);
  const newly = withheld.filter((w) => changedSince(previous, data, w));
  if (!newly.length) return;
  const watch = await q.findWatch({ serverId });
  const listed = newly.slice(0, 5).map((w) => `${w.kind} ${w.name}${w.fields ? ` (${w.fields.join(", ")})` : " (new)"}`);
  const more = newly.length > listed.length ? `; and ${newly.length - listed.length} more` : "";
  await raiseAlert({
    workspaceId,
    event: "definitions-withheld",
    server: { id: serverId, name: serverName },
    path: `/servers/${serverId}?tab=changes`,
    text: `${serverName}: ${newly.length} definition${newly.length === 1 ? "" : "s"} withheld until an admin approves them (${listed.join("; ")}${more})`,
    targets: watch ? { mail: JSON.parse(watch.mail) as string[], webhooks: decryptJson<string[]>(watch.webhooks) } : { mail: [], webhooks: [] },
  });
}


/** Whether a withheld item's definition differs between the previous snapshot and this one. */
function changedSince(previous: SnapshotData | null, data: SnapshotData, item: WithheldItem): boolean {
  if (!previous || !PINNED_KINDS.includes(item.kind)) return true;
  const find = (d: SnapshotData) => d[LIST[item.kind]].find((i) => itemKey(item.kind, i) === item.name);
  return canonicalJson(find(previous) ?? null) !== canonicalJson(find(data) ?? null);
}
