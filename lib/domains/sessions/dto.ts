import type { Era, Negotiation, SessionInfo } from "@/lib/domains/servers";
import type { SessionRow } from "./queries";

export function toSessionInfo(row: SessionRow): SessionInfo {
  return {
    id: row.id,
    status: row.status as SessionInfo["status"],
    transport: row.transport,
    protocolVersion: row.protocolVersion,
    era: row.era as Era | null,
    negotiation: row.negotiation as Negotiation | null,
    negotiationNote: row.negotiationNote,
    serverInfo: parse(row.serverInfo) as SessionInfo["serverInfo"],
    capabilities: parse(row.capabilities) as SessionInfo["capabilities"],
    instructions: row.instructions,
    error: row.error,
    errorKind: (row.errorKind as SessionInfo["errorKind"]) ?? null,
    createdAt: row.createdAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
    health: (row.health as SessionInfo["health"]) ?? null,
    healthError: row.healthError,
    lastPingAt: row.lastPingAt?.toISOString() ?? null,
    lastPingMs: row.lastPingMs,
    logLevel: row.logLevel,
  };
}

function parse(text: string | null): unknown {
  return text ? JSON.parse(text) : null;
}
