import "server-only";
import { SwitchboardError } from "@/lib/core/errors";
import type { TrafficRecord } from "@/lib/mcp/server";
import { CALL_REQUEST_METHODS, type ListTrafficQuery, type TrafficDirection, TrafficKind, TrafficMessageDto, TrafficPage } from "./index";
import { callsOfSession, findMessage, listPinned, listTraffic, pin, unpin, type TrafficRow } from "./queries";
import { enqueueTraffic, flushTraffic } from "./writer";

export { flushTraffic } from "./writer";

/** The `onTraffic` sink of a session's connection: queues each message for a batched insert. */
export function trafficSink(workspaceId: string, sessionId: string): (record: TrafficRecord) => void {
  return (record) => enqueueTraffic({ workspaceId, sessionId, ...record });
}

/** A page of a session's traffic in `query.order` (queued messages are written first, so nothing recorded is missed). */
export async function listSessionTraffic(sessionId: string, query: ListTrafficQuery): Promise<TrafficPage> {
  await flushTraffic();
  const rows = await listTraffic({ sessionId, direction: query.direction, method: query.method, q: query.q || undefined, order: query.order, cursor: query.cursor, limit: query.limit });
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  return { items: await withCalls(sessionId, page), nextCursor: more ? String(page[page.length - 1]!.id) : null };
}

/** The caller's pinned messages of a session (any direction or filter), in the order pinned. */
export async function listPinnedTraffic(input: { userId: string; sessionId: string }): Promise<{ items: TrafficMessageDto[] }> {
  const pins = await listPinned(input);
  const { sessionId } = input;
  return { items: await withCalls(sessionId, pins.map((p) => p.message)) };
}

/** Pins or unpins a message of the session for the caller (idempotent). */
export async function setPin(input: { userId: string; sessionId: string; messageId: number; pinned: boolean }): Promise<{ pinned: boolean }> {
  const { userId, sessionId, messageId, pinned } = input;
  if (!(await findMessage({ sessionId, id: messageId }))) throw new SwitchboardError("not_found", "Message not found");
  if (pinned) await pin({ userId, sessionId, messageId });
  else await unpin({ userId, messageId });
  return { pinned };
}

/** How long before its request leaves a call may have started (connecting, validation, a slow agent). */
const CALL_LEAD_MS = 60_000;

/**
 * Links each outgoing tools/call, resources/read and prompts/get to the call that sent it. The
 * request carries nothing of the call (the JSON-RPC id is the transport's), so the match is the
 * session's unlinked call of the same method and name that started closest before it was sent.
 */
async function withCalls(sessionId: string, rows: (TrafficRow & { id: number })[]): Promise<TrafficMessageDto[]> {
  const requests = rows
    .filter((r) => r.direction === "out" && r.kind === "request" && (CALL_REQUEST_METHODS as readonly (string | null)[]).includes(r.method))
    .sort((a, b) => a.id - b.id);
  if (requests.length === 0) return rows.map((r) => toDto(r, null));
  const times = requests.map((r) => r.at.getTime());
  const calls = await callsOfSession({ workspaceId: requests[0]!.workspaceId, sessionId, from: new Date(Math.min(...times) - CALL_LEAD_MS), to: new Date(Math.max(...times) + 1000) });
  const taken = new Set<string>();
  const linked = new Map<number, string>();
  for (const r of requests) {
    const name = requestName(r);
    let best: (typeof calls)[number] | undefined;
    for (const c of calls) {
      if (taken.has(c.id) || c.method !== r.method || c.name !== name) continue;
      const lead = r.at.getTime() - c.startedAt.getTime();
      if (lead < -1000 || lead > CALL_LEAD_MS) continue;
      if (!best || Math.abs(lead) < Math.abs(r.at.getTime() - best.startedAt.getTime())) best = c;
    }
    if (best) {
      taken.add(best.id);
      linked.set(r.id, best.id);
    }
  }
  return rows.map((r) => toDto(r, linked.get(r.id) ?? null));
}

/** The call name of a request: the tool or prompt name, or the resource URI. */
function requestName(row: TrafficRow): string | null {
  try {
    const params = (JSON.parse(row.body) as { params?: { name?: unknown; uri?: unknown } }).params;
    const name = row.method === "resources/read" ? params?.uri : params?.name;
    return typeof name === "string" ? name : null;
  } catch {
    return null;
  }
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

function toDto(row: TrafficRow & { id: number }, callId: string | null): TrafficMessageDto {
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
    callId,
  };
}
