import { prisma } from "@/lib/core/db/client";
import { forgetCache } from "@/lib/core/runtime";

export function createSession({ workspaceId, serverId }: { workspaceId: string; serverId: string }) {
  return prisma.mcpSession.create({ data: { workspaceId, serverId, status: "connecting" } });
}

export function markConnected(input: {
  id: string;
  transport: string;
  protocolVersion: string | null;
  era: string;
  serverInfo: unknown;
  capabilities: unknown;
  instructions: string | null;
  remoteSessionId: string | null;
  negotiation: string;
  negotiationNote: string | null;
}) {
  const { id, serverInfo, capabilities, ...rest } = input;
  return prisma.mcpSession.update({
    where: { id },
    data: { ...rest, status: "connected", serverInfo: JSON.stringify(serverInfo), capabilities: JSON.stringify(capabilities) },
  });
}

export function markEnded({ id, status, error, errorKind }: { id: string; status: "closed" | "failed"; error?: string; errorKind?: string | null }) {
  return prisma.mcpSession.updateMany({
    where: { id, status: { in: ["connecting", "connected"] } },
    data: { status, error: error ?? null, errorKind: errorKind ?? null, closedAt: new Date() },
  });
}

export function closeOpenSessions({ serverId }: { serverId: string }) {
  return prisma.mcpSession.updateMany({
    where: { serverId, status: { in: ["connecting", "connected"] } },
    data: { status: "closed", closedAt: new Date() },
  });
}

/** The era verdict is kept on the server row, so the next connect can skip the probe. */
export async function rememberEra({ serverId, era }: { serverId: string; era: string }) {
  const row = await prisma.server.update({ where: { id: serverId }, data: { eraHint: era, eraHintAt: new Date() } });
  await forgetCache("serverCache");
  return row;
}

export function findSession({ id }: { id: string }) {
  return prisma.mcpSession.findUnique({ where: { id } });
}

export type SessionRow = NonNullable<Awaited<ReturnType<typeof findSession>>>;

/** Records the outcome of a ping on the session row. */
export function markHealth({ id, health, error, latencyMs, at }: { id: string; health: "healthy" | "unhealthy"; error: string | null; latencyMs: number | null; at: Date }) {
  return prisma.mcpSession.update({ where: { id }, data: { health, healthError: error, lastPingAt: at, ...(latencyMs !== null ? { lastPingMs: latencyMs } : {}) } });
}

/** A session of the workspace, or null (another workspace's session is not found either). */
export function findWorkspaceSession({ id, workspaceId }: { id: string; workspaceId: string }) {
  return prisma.mcpSession.findFirst({ where: { id, workspaceId } });
}

/** A server's sessions, newest first (for the traffic and log session picker). */
export function listServerSessions({ serverId, workspaceId, limit }: { serverId: string; workspaceId: string; limit: number }) {
  return prisma.mcpSession.findMany({ where: { serverId, workspaceId }, orderBy: { createdAt: "desc" }, take: limit });
}
