import "server-only";
import crypto from "node:crypto";
import { createParser } from "eventsource-parser";
import type { RequestHead } from "@/lib/core/access";
import { piece } from "@/lib/core/runtime";
import type { GatewayPrincipal } from "./auth";
import { readBody, rpcError } from "./http";

/** The endpoint's own Streamable HTTP handler: every legacy message goes through it, auth, gate and recorder included. */
type Serve = (request: Request) => Promise<Response>;

/** One legacy host: its event stream, and the Streamable HTTP session its messages ride on. */
interface LegacyStream {
  userId: string;
  sessionId: string | null;
  protocolVersion: string | null;
  listening: boolean;
  send(data: string, event?: string): void;
  /** Aborted when the host's event stream ends. */
  readonly ended: AbortSignal;
}

const streams = () => piece("gatewayLegacyStreams", () => new Map<string, LegacyStream>());
const encoder = new TextEncoder();
/** Open event streams one person may hold on one instance: a host needs one, a few tabs or tools a handful. */
export const MAX_LEGACY_STREAMS = 16;
/** What may wait for a host that stopped reading its stream before the stream is ended. */
const MAX_QUEUED_BYTES = 16 * 1024 * 1024;

/**
 * A request of the legacy HTTP+SSE transport (protocol 2024-11-05, still the only one of the TS
 * SDK 1.x `SSEClientTransport` and the AI SDK's `type: "sse"`): a GET asking for an event stream
 * without a session (Streamable HTTP's GET always names one), or a POST to the endpoint it announced.
 */
export function isLegacySse(request: RequestHead): boolean {
  if (request.method === "GET") return !request.headers.has("mcp-session-id") && (request.headers.get("accept") ?? "").includes("text/event-stream");
  return request.method === "POST" && request.url.includes("sessionId") && new URL(request.url).searchParams.has("sessionId");
}

/**
 * Serves a legacy host as an adapter in front of the endpoint's Streamable HTTP handler: the GET
 * opens the host's event stream and names its POST endpoint (`endpoint` event); each POST is
 * replayed to the handler as a Streamable HTTP request of one session (the host's own headers,
 * so its token is checked on every message), and whatever that answers, on a JSON body or an
 * event stream, goes down the host's event stream, as do the session's own notifications and
 * requests (its GET stream, opened once the host is initialized). The host gets 202 Accepted.
 */
export async function serveLegacySse(request: Request, principal: GatewayPrincipal, serve: Serve): Promise<Response> {
  return request.method === "GET" ? open(request, principal, serve) : await post(request, principal, serve);
}

function open(request: Request, principal: GatewayPrincipal, serve: Serve): Response {
  const held = [...streams().values()].filter((s) => s.userId === principal.userId).length;
  if (held >= MAX_LEGACY_STREAMS) return rpcError(429, null, -32000, `Too many open event streams (${MAX_LEGACY_STREAMS}): close one first`);
  const id = crypto.randomUUID();
  const left = new AbortController();
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  const stream: LegacyStream = {
    userId: principal.userId,
    sessionId: null,
    protocolVersion: null,
    listening: false,
    send(data, event = "message") {
      if (left.signal.aborted || !controller) return;
      controller.enqueue(encoder.encode(`event: ${event}\ndata: ${data}\n\n`));
      // A host that stopped reading: its stream ends rather than the console holding what it never takes.
      if ((controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) end();
    },
    ended: left.signal,
  };
  const end = () => {
    if (left.signal.aborted) return;
    left.abort();
    streams().delete(id);
    if (stream.sessionId) void serve(inner(request, "DELETE", stream)).catch(() => undefined);
    try {
      controller?.close();
    } catch {
      // Already closed by the reader going away.
    }
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      cancel: end,
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
  request.signal.addEventListener("abort", end, { once: true });
  streams().set(id, stream);
  stream.send(`${new URL(request.url).pathname}?sessionId=${id}`, "endpoint");
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform" } });
}

async function post(request: Request, principal: GatewayPrincipal, serve: Serve): Promise<Response> {
  const stream = streams().get(new URL(request.url).searchParams.get("sessionId") ?? "");
  if (!stream || stream.userId !== principal.userId) return rpcError(404, null, -32001, "Session not found: open the event stream again");
  const body = await readBody(request);
  if (body.parsed === undefined) return rpcError(400, null, -32700, "Parse error: the body is not JSON");
  const answer = await serve(inner(request, "POST", stream, body.text));
  stream.sessionId ??= answer.headers.get("mcp-session-id");
  const type = answer.headers.get("content-type") ?? "";
  if (type.includes("text/event-stream")) void pump(answer.body, stream);
  else if (type.includes("json")) {
    const text = await answer.text();
    if (!deliver(text, stream)) return new Response(text, { status: answer.status, headers: answer.headers });
  } else if (!answer.ok) return answer;
  if (!stream.listening && stream.sessionId && isInitialized(body.parsed)) listen(request, stream, serve);
  return new Response("Accepted", { status: 202 });
}

/** The session's own stream (list_changed, logging, the server's requests outside a call), down the host's. */
function listen(request: Request, stream: LegacyStream, serve: Serve): void {
  stream.listening = true;
  void serve(inner(request, "GET", stream, undefined, stream.ended))
    .then((answer) => (answer.ok && answer.body ? pump(answer.body, stream) : answer.body?.cancel()))
    .catch(() => undefined);
}

function inner(base: Request, method: string, stream: LegacyStream, body?: string, signal?: AbortSignal): Request {
  const url = new URL(base.url);
  url.search = "";
  const headers = new Headers(base.headers);
  for (const name of ["content-length", "content-type", "accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"]) headers.delete(name);
  headers.set("accept", method === "GET" ? "text/event-stream" : "application/json, text/event-stream");
  if (body !== undefined) headers.set("content-type", "application/json");
  if (stream.sessionId) headers.set("mcp-session-id", stream.sessionId);
  if (stream.protocolVersion) headers.set("mcp-protocol-version", stream.protocolVersion);
  return new Request(url, { method, headers, ...(body !== undefined ? { body } : {}), ...(signal ? { signal } : {}) });
}

async function pump(body: ReadableStream<Uint8Array> | null, stream: LegacyStream): Promise<void> {
  if (!body) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent(event) {
      if (event.data && (!event.event || event.event === "message")) deliver(event.data, stream);
    },
  });
  const stop = () => void reader.cancel().catch(() => undefined);
  stream.ended.addEventListener("abort", stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch {
    // The host left, or the session's stream broke: what came before was delivered.
  } finally {
    stream.ended.removeEventListener("abort", stop);
  }
}

/** Sends each JSON-RPC message of a JSON text down the host's stream; false when the text holds none (a REST error). */
function deliver(text: string, stream: LegacyStream): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  const messages = (Array.isArray(parsed) ? parsed : [parsed]).filter((m) => (m as { jsonrpc?: unknown } | null)?.jsonrpc === "2.0");
  for (const message of messages) {
    const version = (message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version === "string" && !stream.protocolVersion) stream.protocolVersion = version;
    stream.send(JSON.stringify(message));
  }
  return messages.length > 0;
}

function isInitialized(message: unknown): boolean {
  return (Array.isArray(message) ? message : [message]).some((m) => (m as { method?: unknown } | null)?.method === "notifications/initialized");
}
