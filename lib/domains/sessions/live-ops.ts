import "server-only";
import type { Principal } from "@/lib/core/access";
import { SwitchboardError } from "@/lib/core/errors";
import { rememberLogLevel } from "@/lib/domains/logs/server";
import type { LogLevel } from "@/lib/domains/logs";
import { McpError } from "@/lib/mcp/server";
import type { SessionInfo } from "@/lib/domains/servers";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import { toSessionInfo } from "./dto";
import { pingSession } from "./health";
import type { PingOutcome } from "./index";
import * as q from "./queries";
import { upstreamFailure } from "./errors";
import { getConnection } from "./server";

/** Pings the server's live session (opening one if there is none) and records the outcome. */
export async function pingServer(server: ServerSecretRow): Promise<PingOutcome> {
  const { sessionId, connection } = await getConnection(server);
  return pingSession({ workspaceId: server.workspaceId, serverId: server.id, sessionId, connection }, Math.min(server.timeoutMs, 30_000));
}

/**
 * Sets the level of log lines the server's live session sends (opening one if needed). A server
 * without the `logging` capability answers 422; a JSON-RPC error from the server 502.
 */
export async function setServerLogLevel(server: ServerSecretRow, level: LogLevel): Promise<{ sessionId: string; level: LogLevel }> {
  const { sessionId, connection } = await getConnection(server);
  try {
    await connection.setLogLevel(level);
  } catch (err) {
    if (err instanceof McpError && err.kind === "protocol" && /capability/.test(err.message)) {
      throw new SwitchboardError("unprocessable", err.message);
    }
    throw upstreamFailure(server, err);
  }
  await rememberLogLevel(sessionId, level);
  return { sessionId, level };
}

/** A session of the caller's workspace; another workspace's is a 404. */
export async function requireSession(principal: Principal, id: string): Promise<SessionInfo & { serverId: string }> {
  const row = await q.findWorkspaceSession({ id, workspaceId: principal.workspaceId });
  if (!row) throw new SwitchboardError("not_found", "Session not found");
  return { ...toSessionInfo(row), serverId: row.serverId };
}

/** The server's sessions, newest first (at most 50). */
export async function listSessionsOfServer(principal: Principal, serverId: string): Promise<SessionInfo[]> {
  const rows = await q.listServerSessions({ serverId, workspaceId: principal.workspaceId, limit: 50 });
  return rows.map(toSessionInfo);
}
