import "server-only";
import { publish } from "@/lib/core/events/server";
import { onAgentLinkUp } from "@/lib/relay/server";
import { connectServer, isLive } from "@/lib/domains/sessions/server";
import * as q from "./queries";

/**
 * A paired agent that comes back (after a restart, or after its grace period ran out) brings back
 * the sessions its servers had: each server whose last session was open, or was lost, is
 * connected again without anyone pressing Connect. One a person disconnected stays closed.
 */
export function restoreAgentSessions(): void {
  onAgentLinkUp((_agentId, servers, resumed) => {
    for (const [name, serverId] of servers) {
      if (resumed.has(name) || isLive(serverId)) continue;
      void reconnect(serverId, name).catch((err: Error) => console.warn(`[sessions] could not reconnect ${name}: ${err.message}`));
    }
  });
}

async function reconnect(serverId: string, name: string): Promise<void> {
  const row = await q.findServerToReconnect({ id: serverId });
  const last = row?.sessions[0];
  if (!row || row.archivedAt || !last) return;
  if (last.status === "closed") {
    console.log(`[sessions] ${name}: its agent is back; the session stays closed (it was disconnected)`);
    return;
  }
  console.log(`[sessions] ${name}: its agent is back; reopening the session`);
  publish(row.workspaceId, { type: "server", serverId, status: "reconnecting" });
  await connectServer({ ...row, actingUserId: null });
}
