import "server-only";
import { audit } from "@/lib/core/audit/server";
import type { Principal } from "@/lib/core/access";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { disconnectServer } from "@/lib/domains/sessions/server";
import { forgetServerStats } from "@/lib/domains/stats/server";
import { toDto } from "./dto";
import type { ArchivedServerDto, ServerDto } from "./index";
import * as q from "./queries";
import { assertServerRoom } from "./quota";

/** What answers 409 when something would talk to an archived server. */
export function archivedError(server: { name: string; archivedAt: Date | null }): SwitchboardError {
  return new SwitchboardError(
    "conflict",
    `"${server.name}" is archived: its history stays readable, but nothing can connect to it or run on it until an admin restores it`,
    { archivedAt: server.archivedAt?.toISOString() ?? null },
  );
}

/**
 * Archives a server (what DELETE does): its live session ends, it leaves the server list, and its
 * calls, sessions, logs, traffic and permalinks stay readable. Archiving an archived server is a no-op.
 */
export async function archiveServer(principal: Principal, id: string): Promise<void> {
  const row = await q.findServer({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Server");
  if (row.archivedAt) return;
  await disconnectServer(id, principal.workspaceId);
  await q.archiveServers({ workspaceId: principal.workspaceId, ids: [id], by: principal.userId });
  await audit(principal, { action: "server.archived", target: { type: "server", id, name: row.name } });
}

/** Archives every active server of an agent (when the agent is revoked); returns their names. */
export async function archiveAgentServers({ workspaceId, agentId, by }: { workspaceId: string; agentId: string; by: string | null }): Promise<string[]> {
  const rows = await q.archiveServers({ workspaceId, agentId, by });
  await Promise.all(rows.map((r) => disconnectServer(r.id, workspaceId)));
  return rows.map((r) => r.name);
}

/** Makes an archived server active again. 409 when an active server has taken its name since. */
export async function restoreServer(principal: Principal, id: string): Promise<ServerDto> {
  const row = await q.findServer({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Server");
  if (!row.archivedAt) throw new SwitchboardError("conflict", `"${row.name}" is not archived`);
  await assertServerRoom(principal.workspaceId);
  const taken = (await q.findServerNames({ workspaceId: principal.workspaceId })).some((s) => s.name === row.name);
  const restored = taken ? null : await q.restoreServer({ workspaceId: principal.workspaceId, id });
  if (!restored) {
    throw new SwitchboardError("conflict", `An active server is named "${row.name}" now: rename or archive that one first, then restore this one`, { name: row.name });
  }
  await audit(principal, { action: "server.restored", target: { type: "server", id, name: row.name } });
  return toDto(restored);
}

/**
 * Deletes an archived server for good, with its calls, sessions, logs and traffic. `confirm` must
 * equal its current number of calls (what the UI's confirmation shows), else 409 with that number.
 */
export async function purgeServer(principal: Principal, id: string, confirm: number, { deleteCalls }: { deleteCalls: q.PurgeCalls }): Promise<{ deletedCalls: number }> {
  const row = await q.findServer({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Server");
  if (!row.archivedAt) throw new SwitchboardError("conflict", `"${row.name}" is not archived: archive it (DELETE) first; only archived servers can be purged`);
  const calls = await q.countServerCalls({ serverId: id });
  if (confirm !== calls) {
    throw new SwitchboardError("conflict", `This deletes ${calls} call${calls === 1 ? "" : "s"}; send { "confirm": ${calls} } to purge "${row.name}"`, { calls });
  }
  const deletedCalls = await q.purgeServer({ workspaceId: principal.workspaceId, id, deleteCalls });
  if (deletedCalls) await forgetServerStats({ workspaceId: principal.workspaceId });
  await audit(principal, { action: "server.purged", target: { type: "server", id, name: row.name }, details: { calls: deletedCalls } });
  return { deletedCalls };
}

/** The archived servers, most recently archived first, each with its number of calls. */
export async function listArchivedServers(principal: Principal): Promise<ArchivedServerDto[]> {
  const rows = await q.listArchivedServers({ workspaceId: principal.workspaceId });
  return rows.map(({ _count, ...row }) => ({ ...toDto(row), archivedAt: row.archivedAt!.toISOString(), callCount: _count.calls }));
}
