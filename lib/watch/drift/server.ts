import "server-only";
import type { Principal } from "@/lib/core/access";
import { maskWebhook } from "@/lib/watch/alerts";
import { audit } from "@/lib/core/audit/server";
import { encryptJson, decryptJson } from "@/lib/core/crypto";
import { notFound } from "@/lib/core/errors";
import { getServer } from "@/lib/domains/servers/server";
import { diffSnapshots } from "./classify";
import type { CapabilityCounts, DefinitionFinding, DiffDto, SnapshotDto, SnapshotSource, WatchDto } from "./index";
import type { WatchInput } from "./schemas";
import { parseData } from "./snapshots";
import * as q from "./queries";

export { checkServer, liveServers, snapshotOnConnect, takeSnapshot } from "./snapshots";
export { noticeApproval } from "./approval-notice";
export { approveSnapshot, pinningStatus, withheldDefinition, withheldDefinitions, withheldServed } from "./pinning";

const HISTORY_LIMIT = 200;

/** A server's snapshots, newest first, each with how many changes (and breaking ones) it brought. */
export async function listHistory(principal: Principal, serverId: string): Promise<SnapshotDto[]> {
  const server = await getServer(principal, serverId);
  // One more than shown, so the oldest shown is compared with the one before it.
  const rows = await q.listSnapshots({ workspaceId: principal.workspaceId, serverId: server.id, limit: HISTORY_LIMIT + 1 });
  const data = rows.map((r) => parseData(r.data));
  return rows.slice(0, HISTORY_LIMIT).map((row, i) => {
    const changes = data[i + 1] ? diffSnapshots(data[i + 1]!, data[i]!) : [];
    return {
      id: row.id,
      takenAt: row.takenAt.toISOString(),
      source: row.source as SnapshotSource,
      counts: JSON.parse(row.counts) as CapabilityCounts,
      changes: changes.length,
      breaking: changes.filter((c) => c.breaking).length,
      findings: JSON.parse(row.findings) as DefinitionFinding[],
    };
  });
}

/**
 * The changes between two snapshots of a server. `to` defaults to the latest, `from` to the one
 * before `to`; a snapshot of another server (or workspace) is 404.
 */
export async function diffHistory(principal: Principal, serverId: string, query: { from?: string; to?: string }): Promise<DiffDto> {
  const server = await getServer(principal, serverId);
  const scope = { workspaceId: principal.workspaceId, serverId: server.id };
  const find = async (id: string) => {
    const row = await q.findSnapshot({ ...scope, id });
    if (!row) throw notFound("Snapshot");
    return row;
  };
  const to = query.to ? await find(query.to) : await q.latestSnapshot({ serverId: server.id });
  const from = query.from ? await find(query.from) : to ? await q.snapshotBefore({ serverId: server.id, takenAt: to.takenAt, id: to.id }) : null;
  if (!to || !from) return { from: from?.id ?? null, to: to?.id ?? null, changes: [] };
  return { from: from.id, to: to.id, changes: diffSnapshots(parseData(from.data), parseData(to.data)) };
}

function toWatchDto(row: { mail: string; webhooks: string; createdAt: Date } | null): WatchDto | null {
  if (!row) return null;
  return { mail: JSON.parse(row.mail) as string[], webhooks: decryptJson<string[]>(row.webhooks).map(maskWebhook), createdAt: row.createdAt.toISOString() };
}

export async function getWatch(principal: Principal, serverId: string): Promise<WatchDto | null> {
  const server = await getServer(principal, serverId);
  return toWatchDto(await q.findWatch({ serverId: server.id }));
}

/** Watches a server (or changes where its alerts go): a list given replaces the stored one, omitted keeps it. */
export async function setWatch(principal: Principal, serverId: string, input: WatchInput): Promise<WatchDto> {
  const server = await getServer(principal, serverId);
  const before = await q.findWatch({ serverId: server.id });
  const mail = input.mail ? [...new Set(input.mail)] : before ? (JSON.parse(before.mail) as string[]) : [];
  const webhooks = input.webhooks ? [...new Set(input.webhooks)] : before ? decryptJson<string[]>(before.webhooks) : [];
  const row = await q.upsertWatch({ serverId: server.id, workspaceId: principal.workspaceId, mail: JSON.stringify(mail), webhooks: encryptJson(webhooks), createdById: principal.userId });
  await audit(principal, { action: "drift.watch_changed", target: { type: "server", id: server.id, name: server.name }, details: { mail: mail.length, webhooks: webhooks.length } });
  return toWatchDto(row)!;
}

export async function removeWatch(principal: Principal, serverId: string): Promise<void> {
  const server = await getServer(principal, serverId);
  const { count } = await q.deleteWatch({ serverId: server.id });
  if (count) await audit(principal, { action: "drift.watch_removed", target: { type: "server", id: server.id, name: server.name } });
}
