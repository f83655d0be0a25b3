import { appendRows, type Columns } from "@/lib/core/db/bulk";
import { containsText, prisma } from "@/lib/core/db/client";

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

const COLUMNS: Columns<TrafficRow> = [
  ["workspace_id", "workspaceId"], ["session_id", "sessionId"], ["direction", "direction"], ["kind", "kind"], ["method", "method"],
  ["rpc_id", "rpcId"], ["size", "size"], ["duration_ms", "durationMs"], ["body", "body"], ["truncated", "truncated"], ["at", "at"],
];

// Every message of every call lands here: written beside Prisma (lib/core/db/bulk.ts), in batches.
export function insertTraffic(rows: TrafficRow[]): Promise<void> {
  return appendRows("traffic_message", COLUMNS, rows);
}

/** Oldest first (or newest first); `cursor` is the id of the last message of the previous page. */
export function listTraffic(input: { sessionId: string; direction?: string; method?: string; q?: string; order: "oldest" | "newest"; cursor?: number; limit: number }) {
  const { sessionId, direction, method, q, order, cursor, limit } = input;
  return prisma.trafficMessage.findMany({
    where: {
      sessionId,
      ...(direction ? { direction } : {}),
      ...(method ? (method.endsWith("/") ? { method: { startsWith: method } } : { method }) : {}),
      ...(q ? { body: containsText(q) } : {}),
      ...(cursor ? { id: order === "newest" ? { lt: cursor } : { gt: cursor } } : {}),
    },
    orderBy: { id: order === "newest" ? "desc" : "asc" },
    take: limit + 1,
  });
}

/**
 * The calls recorded on a session that started in [from, to]: what its outgoing requests are matched
 * to. The workspace condition lets the (workspaceId, startedAt, id) index serve the time range; no
 * index starts with sessionId, so without it every traffic page scanned the calls table.
 */
export function callsOfSession(input: { workspaceId: string; sessionId: string; from: Date; to: Date }) {
  return prisma.call.findMany({
    where: { workspaceId: input.workspaceId, sessionId: input.sessionId, startedAt: { gte: input.from, lte: input.to } },
    select: { id: true, method: true, name: true, startedAt: true },
    orderBy: { startedAt: "asc" },
  });
}

/** A person's pinned messages of a session, in the order they were pinned. */
export function listPinned(input: { sessionId: string; userId: string }) {
  return prisma.trafficPin.findMany({
    where: { sessionId: input.sessionId, userId: input.userId },
    orderBy: { createdAt: "asc" },
    include: { message: true },
  });
}

export function findMessage(input: { sessionId: string; id: number }) {
  return prisma.trafficMessage.findFirst({ where: { id: input.id, sessionId: input.sessionId }, select: { id: true } });
}

export async function pin(input: { userId: string; sessionId: string; messageId: number }): Promise<void> {
  await prisma.trafficPin.upsert({ where: { userId_messageId: { userId: input.userId, messageId: input.messageId } }, create: input, update: {} });
}

export async function unpin(input: { userId: string; messageId: number }): Promise<void> {
  await prisma.trafficPin.deleteMany({ where: input });
}
