import "server-only";
import type { TrafficRecord } from "@/lib/mcp/server";
import type { ListTrafficQuery, TrafficDirection, TrafficKind, TrafficMessageDto, TrafficPage } from "./index";
import { listTraffic, type TrafficRow } from "./queries";
import { enqueueTraffic, flushTraffic } from "./writer";

export { flushTraffic } from "./writer";

/** The `onTraffic` sink of a session's connection: queues each message for a batched insert. */
export function trafficSink(workspaceId: string, sessionId: string): (record: TrafficRecord) => void {
  return (record) => enqueueTraffic({ workspaceId, sessionId, ...record });
}

/** A page of a session's traffic, oldest first (queued messages are written first, so nothing recorded is missed). */
export async function listSessionTraffic(sessionId: string, query: ListTrafficQuery): Promise<TrafficPage> {
  await flushTraffic();
  const rows = await listTraffic({ sessionId, direction: query.direction, method: query.method, q: query.q || undefined, cursor: query.cursor, limit: query.limit });
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  return { items: page.map(toDto), nextCursor: more ? String(page[page.length - 1]!.id) : null };
}

/**
 * The whole filtered trace as NDJSON: one JSON object per line, the message itself under
 * `message` (parsed when it was not cut, else the cut text under `body`). Streams page by page.
 */
export function exportSessionTraffic(sessionId: string, query: ListTrafficQuery): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: number | undefined;
  let done = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return controller.close();
      const page = await listSessionTraffic(sessionId, { ...query, cursor, limit: 500 });
      const lines = page.items.map((m) => JSON.stringify(toExportLine(m))).join("\n");
      if (lines) controller.enqueue(encoder.encode(`${lines}\n`));
      cursor = page.nextCursor ? Number(page.nextCursor) : undefined;
      done = page.nextCursor === null;
      if (done) controller.close();
    },
  });
}

function toExportLine({ body, truncated, ...rest }: TrafficMessageDto) {
  if (truncated) return { ...rest, truncated, body };
  try {
    return { ...rest, truncated, message: JSON.parse(body) as unknown };
  } catch {
    return { ...rest, truncated, body };
  }
}

function toDto(row: TrafficRow & { id: number }): TrafficMessageDto {
  return {
    id: row.id,
    sessionId: row.sessionId,
    direction: row.direction as TrafficDirection,
    kind: row.kind as TrafficKind,
    method: row.method,
    rpcId: row.rpcId,
    size: row.size,
    durationMs: row.durationMs,
    body: row.body,
    truncated: row.truncated,
    at: row.at.toISOString(),
  };
}
