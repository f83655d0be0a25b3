import "server-only";
import { encryptJson } from "@/lib/core/crypto";
import { parseRoots } from "@/lib/domains/interactions/server";
import { isAgentServerOnline } from "@/lib/relay/server";
import { isLive, toSessionInfo } from "@/lib/domains/sessions/server";
import type { ServerDto, ServerStatus, SessionInfo } from "./index";
import type { ServerRow } from "./queries";

export function toDto(row: ServerRow): ServerDto {
  const session = row.sessions[0] ? toSessionInfo(row.sessions[0]) : null;
  const stdio = row.stdioConfig ? (JSON.parse(row.stdioConfig) as ServerDto["stdio"]) : null;
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as ServerDto["kind"],
    url: row.url,
    transport: row.transport as ServerDto["transport"],
    protocolEra: (row.protocolEra as ServerDto["protocolEra"]) ?? "auto",
    headerNames: JSON.parse(row.headerNames) as string[],
    timeoutMs: row.timeoutMs,
    maxTotalTimeoutMs: row.maxTotalTimeoutMs,
    agentId: row.agentId,
    stdio,
    status: statusOf(row, session),
    session,
    roots: parseRoots(row.roots),
    unattendedPolicy: row.unattendedPolicy === "wait" ? "wait" : "decline",
    unattendedWaitMs: row.unattendedWaitMs,
    shareProcess: row.shareProcess,
    pinDefinitions: row.pinDefinitions,
    approvedSnapshotId: row.approvedSnapshotId,
    authMode: row.authMode as ServerDto["authMode"],
    oauthClientId: row.oauthClientId,
    oauthClientAuth: (row.oauthClientAuth as ServerDto["oauthClientAuth"]) ?? null,
    oauthKeyAlg: row.oauthKeyAlg ?? null,
    oauthScope: row.oauthScope ?? null,
    idpIssuer: row.idpIssuer ?? null,
    idpTokenEndpoint: row.idpTokenEndpoint ?? null,
    idpClientId: row.idpClientId ?? null,
    oauthIssuer: row.oauthIssuer ?? null,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    archivedBy: row.archivedBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function statusOf(row: ServerRow, session: SessionInfo | null): ServerStatus {
  if (row.archivedAt) return "disconnected";
  if (row.kind === "stdio") return "waiting";
  if (row.kind === "agent" && !(row.agentId && isAgentServerOnline(row.agentId, row.name))) return "offline";
  if (session?.status === "failed") return "error";
  if (session?.status === "connected" || session?.status === "connecting") return isLive(row.id) || session.status === "connected" ? "connected" : "disconnected";
  return "disconnected";
}

/** A header map as the row stores it: the names in the clear, the values encrypted. */
export function headerColumns(headers: Record<string, string>) {
  const names = Object.keys(headers).sort();
  return { headerNames: JSON.stringify(names), headersSecret: names.length ? encryptJson(headers) : null };
}
