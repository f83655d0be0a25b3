import { appendRows, type Columns } from "@/lib/db/bulk";
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

const COLUMNS: Columns<TrafficRow> = [
  ["workspace_id", "workspaceId"], ["session_id", "sessionId"], ["direction", "direction"], ["kind", "kind"], ["method", "method"],
  ["rpc_id", "rpcId"], ["size", "size"], ["duration_ms", "durationMs"], ["body", "body"], ["truncated", "truncated"], ["at", "at"],
];

// Every message of every call lands here: written beside Prisma (lib/db/bulk.ts), in batches.
export function insertTraffic(rows: TrafficRow[]): Promise<void> {
  return appendRows("traffic_message", COLUMNS, rows);
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
