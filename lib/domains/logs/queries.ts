import { containsText, prisma } from "@/lib/core/db/client";

export function insertLog(data: { workspaceId: string; serverId: string; sessionId: string; level: string; severity: number; logger: string | null; data: string }) {
  return prisma.sessionLog.create({ data });
}

/** Newest first; `cursor` is the id of the last line of the previous page. */
export function listLogs({ sessionId, minSeverity, q, cursor, limit }: { sessionId: string; minSeverity?: number; q?: string; cursor?: number; limit: number }) {
  return prisma.sessionLog.findMany({
    where: {
      sessionId,
      ...(minSeverity !== undefined ? { severity: { gte: minSeverity } } : {}),
      ...(q ? { OR: [{ data: containsText(q) }, { logger: containsText(q) }] } : {}),
      ...(cursor ? { id: { lt: cursor } } : {}),
    },
    orderBy: { id: "desc" },
    take: limit + 1,
  });
}

export function saveLogLevel({ sessionId, level }: { sessionId: string; level: string }) {
  return prisma.mcpSession.update({ where: { id: sessionId }, data: { logLevel: level } });
}
