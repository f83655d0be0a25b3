import { containsText, prisma } from "@/lib/db/client";

export interface TrafficRow {
  workspaceId: string;
  sessionId: string;
  direction: string;
  kind: string;
  method: string | null;
  rpcId: string | null;
  size: number;
  durationMs: number | null;
  body: string;
  truncated: boolean;
  at: Date;
}

export function insertTraffic(rows: TrafficRow[]) {
  return prisma.trafficMessage.createMany({ data: rows });
}

/** Oldest first; `cursor` is the id of the last message of the previous page. */
export function listTraffic(input: { sessionId: string; direction?: string; method?: string; q?: string; cursor?: number; limit: number }) {
  const { sessionId, direction, method, q, cursor, limit } = input;
  return prisma.trafficMessage.findMany({
    where: {
      sessionId,
      ...(direction ? { direction } : {}),
      ...(method ? (method.endsWith("/") ? { method: { startsWith: method } } : { method }) : {}),
      ...(q ? { body: containsText(q) } : {}),
      ...(cursor ? { id: { gt: cursor } } : {}),
    },
    orderBy: { id: "asc" },
    take: limit + 1,
  });
}
