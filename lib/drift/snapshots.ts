import "server-only";
import { createHash } from "node:crypto";
import { decryptJson } from "@/lib/crypto";
import { raiseAlert } from "@/lib/alerts/server";
import { publish } from "@/lib/events/server";
import type { ListKind } from "@/lib/mcp";
import { piece } from "@/lib/runtime";
import { getLiveConnection, type ConnectedSession } from "@/lib/sessions/server";
import { canonicalJson, diffSnapshots, sortedData } from "./classify";
import type { CapabilityChange, CapabilityCounts, SnapshotData, SnapshotSource } from "./index";
import * as q from "./queries";

interface Lister {
  list(kind: ListKind): Promise<unknown[]>;
}

interface DriftState {
  /** Servers whose session connected on this instance: the daily check looks at those still live. */
  connected: Map<string, { workspaceId: string; serverName: string }>;
  /** One snapshot at a time per server, so two connects in a row compare with each other. */
  inProgress: Map<string, Promise<unknown>>;
  timer: NodeJS.Timeout | null;
}

const state = () => piece("drift", (): DriftState => ({ connected: new Map(), inProgress: new Map(), timer: null }));

/** A snapshot's stored lists, read back. */
export function parseData(data: string): SnapshotData {
  return JSON.parse(data) as SnapshotData;
}

/** lib/start registers this with lib/sessions: every connect takes a snapshot. */
export function snapshotOnConnect(session: ConnectedSession): void {
  state().connected.set(session.serverId, { workspaceId: session.workspaceId, serverName: session.serverName });
  void takeSnapshot({ ...session, lister: session.connection, source: "connect" });
}

/**
 * Lists the server's tools, prompts, resources and templates and stores them when they differ
 * from its last snapshot; a watched server whose new snapshot breaks something raises an alert.
 * Failures are logged: a snapshot must never fail a connect.
 */
export function takeSnapshot(input: { workspaceId: string; serverId: string; serverName: string; lister: Lister; source: SnapshotSource }): Promise<string | null> {
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
  const json = canonicalJson(data);
  const hash = createHash("sha256").update(json).digest("hex");
  const last = await q.latestSnapshot({ serverId });
  if (last?.hash === hash) return null;
  const counts: CapabilityCounts = { tools: tools.length, prompts: prompts.length, resources: resources.length, templates: templates.length };
  const row = await q.insertSnapshot({ workspaceId, serverId, hash, source, counts: JSON.stringify(counts), data: json });
  publish(workspaceId, { type: "capabilities", serverId, snapshotId: row.id });
  if (last) await alertIfBreaking({ workspaceId, serverId, serverName, changes: diffSnapshots(parseData(last.data), data) });
  return row.id;
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
 * The daily check: a snapshot of every server with a live session on this instance, every
 * `everyMs`. Several instances may check one server; the hash makes repeats no-ops.
 */
export function startDriftCheck({ everyMs }: { everyMs: number }): void {
  const s = state();
  if (s.timer || !(everyMs > 0)) return;
  s.timer = setInterval(() => void checkLiveServers(), everyMs);
  s.timer.unref();
}

export function stopDriftCheck(): void {
  const s = state();
  if (s.timer) clearInterval(s.timer);
  s.timer = null;
}

async function checkLiveServers(): Promise<void> {
  const { connected } = state();
  for (const [serverId, server] of [...connected]) {
    const live = await getLiveConnection(serverId);
    if (!live) {
      connected.delete(serverId);
      continue;
    }
    await takeSnapshot({ ...server, serverId, lister: live.connection, source: "daily" });
  }
}
