import "server-only";
import { createHash } from "node:crypto";
import { decryptJson } from "@/lib/core/crypto";
import { raiseAlert } from "@/lib/watch/alerts/server";
import { publish } from "@/lib/core/events/server";
import { piece } from "@/lib/core/runtime";
import type { ConnectedSession, SnapshotLister } from "@/lib/domains/sessions/server";
import type { WorkItem } from "@/lib/core/scheduler";
import { isUniqueViolation } from "@/lib/core/db/client";
import { canonicalJson, diffSnapshots, sortedData } from "./classify";
import type { CapabilityChange, CapabilityCounts, SnapshotData, SnapshotSource } from "./index";
import { afterSnapshot, type PinEntry } from "./pinning";
import * as q from "./queries";
import { scanDefinitions } from "./scan";

interface DriftState {
  /** Live connections on this instance by server, whoever owns them (sessions, gateway pools, relays). */
  live: Map<string, Set<LiveConnection>>;
  /** One snapshot at a time per server, so two connects in a row compare with each other. */
  inProgress: Map<string, Promise<unknown>>;
  /** Pinned servers' withheld items, and their loads in flight (./pinning.ts). */
  pins: Map<string, PinEntry>;
  pinLoads: Map<string, Promise<PinEntry>>;
}

/** A live connection and when it went live (its connect snapshot stands for that due time). */
type LiveConnection = ConnectedSession & { since: number };

export const driftState = () => piece("drift", (): DriftState => ({ live: new Map(), inProgress: new Map(), pins: new Map(), pinLoads: new Map() }));
const state = driftState;

/** A snapshot's stored lists, read back. */
export function parseData(data: string): SnapshotData {
  return JSON.parse(data) as SnapshotData;
}

/**
 * lib/start registers this with lib/domains/sessions: a connection that goes live, whoever opened
 * it, is snapshotted — unless another connection to the server is live here already (the
 * gateway's pool opens several per server: their lists would repeat the first one's; the daily check follows changes).
 */
export function snapshotOnConnect(session: ConnectedSession): void {
  const { live } = state();
  const sessions = live.get(session.serverId) ?? new Set();
  const alreadyLive = [...sessions].some((s) => s.live());
  live.set(session.serverId, sessions.add({ ...session, since: Date.now() }));
  if (!alreadyLive) void takeSnapshot({ ...session, source: "connect" });
}

/**
 * Lists the server's tools, prompts, resources and templates and stores them when they differ
 * from its last snapshot; a watched server whose new snapshot breaks something raises an alert.
 * Failures are logged: a snapshot must never fail a connect.
 */
export function takeSnapshot(input: { workspaceId: string; serverId: string; serverName: string; lister: SnapshotLister; source: SnapshotSource }): Promise<string | null> {
  const { inProgress } = state();
  const before = inProgress.get(input.serverId) ?? Promise.resolve();
  const run = before.then(() => snapshot(input)).catch((err: Error) => {
    console.error(`[drift] snapshot of server ${input.serverId} failed: ${err.message}`);
    return null;
  });
  inProgress.set(input.serverId, run);
  void run.finally(() => inProgress.get(input.serverId) === run && inProgress.delete(input.serverId));
  return run;
}

async function snapshot({ workspaceId, serverId, serverName, lister, source }: Parameters<typeof takeSnapshot>[0]): Promise<string | null> {
  const [tools, prompts, resources, templates] = await Promise.all(
    (["tools", "prompts", "resources", "resource-templates"] as const).map((kind) => lister.list(kind) as Promise<Record<string, unknown>[]>),
  );
  const data = sortedData({ tools, prompts, resources, templates });
  // Hashed canonically, stored with each item's keys as listed: the lint counts the tokens of what hosts are sent.
  const hash = createHash("sha256").update(canonicalJson(data)).digest("hex");
  const counts: CapabilityCounts = { tools: tools.length, prompts: prompts.length, resources: resources.length, templates: templates.length };
  const others = (await q.otherServersLatest({ workspaceId, serverId })).map((o) => ({ server: o.server.name, tools: parseData(o.data).tools.map((t) => String(t.name ?? "")) }));
  const findings = JSON.stringify(scanDefinitions(data, others));
  // Another instance may store a snapshot of the server at the same moment: the loser reads it and compares again.
  for (let attempt = 0; ; attempt++) {
    const last = await q.latestSnapshot({ serverId });
    if (last?.hash === hash) return null;
    try {
      const row = await q.insertSnapshot({ workspaceId, serverId, seq: (last?.seq ?? 0) + 1, hash, source, counts: JSON.stringify(counts), data: JSON.stringify(data), findings });
      const previous = last ? parseData(last.data) : null;
      await afterSnapshot({ workspaceId, serverId, serverName, snapshotId: row.id, previous, data }).catch((err: Error) => console.error(`[drift] pinning after snapshot ${row.id} of server ${serverId} failed: ${err.message}`));
      publish(workspaceId, { type: "capabilities", serverId, snapshotId: row.id });
      if (previous) await alertIfBreaking({ workspaceId, serverId, serverName, changes: diffSnapshots(previous, data) });
      return row.id;
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= 3) throw err;
    }
  }
}

async function alertIfBreaking({ workspaceId, serverId, serverName, changes }: { workspaceId: string; serverId: string; serverName: string; changes: CapabilityChange[] }) {
  const breaking = changes.filter((c) => c.breaking);
  if (!breaking.length) return;
  const watch = await q.findWatch({ serverId });
  if (!watch) return;
  const listed = breaking.slice(0, 5).map((c) => `${c.kind} ${c.name}: ${c.detail}`);
  const more = breaking.length > listed.length ? `; and ${breaking.length - listed.length} more` : "";
  await raiseAlert({
    workspaceId,
    event: "breaking-change",
    server: { id: serverId, name: serverName },
    path: `/servers/${serverId}?tab=changes`,
    text: `${serverName}: ${breaking.length} breaking capability change${breaking.length === 1 ? "" : "s"} (${listed.join("; ")}${more})`,
    targets: { mail: JSON.parse(watch.mail) as string[], webhooks: decryptJson<string[]>(watch.webhooks) },
  });
}

/**
 * The daily check's work (lib/start/jobs.ts `drift.check`): the servers with a connection here
 * live since before the due time (a later one was just snapshotted at its connect), each claimed
 * once per due time across instances.
 */
export function liveServers(dueAt: Date): WorkItem[] {
  const { live } = state();
  for (const [serverId, sessions] of live) {
    for (const session of sessions) if (!session.live()) sessions.delete(session);
    if (!sessions.size) live.delete(serverId);
  }
  return [...live].filter(([, sessions]) => [...sessions].some((s) => s.since <= dueAt.getTime())).map(([key]) => ({ key, dueAt }));
}

/** The daily check of one server: a snapshot through any of its live connections here. */
export async function checkServer({ serverId }: { serverId: string }): Promise<string | void> {
  const session = [...(state().live.get(serverId) ?? [])].find((s) => s.live());
  if (!session) return;
  if (await takeSnapshot({ ...session, source: "daily" })) return "the server's capabilities changed: new snapshot";
}
