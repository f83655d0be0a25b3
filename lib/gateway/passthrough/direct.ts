import "server-only";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { isJsonContentType, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import { Reply } from "@/lib/api/reply";
import type { RequestHead } from "@/lib/core/access";
import { SERVER_TIMING_HEADER, Timing, type Stage } from "@/lib/core/timing";

/** How long an answer may take and still go out as JSON; a slower one streams as it comes. */
const JSON_WAIT_MS = 200;

type Id = string | number;
export type OneRequest = { jsonrpc: "2.0"; id: Id; method: string; params?: Record<string, unknown> };

/**
 * A host's POST of one JSON-RPC request to its relayed session, answered by the relay itself
 * rather than through the SDK's server transport (whose event stream, then read back as JSON,
 * cost more CPU than the rest of the call): JSON when nothing but the answer comes within
 * JSON_WAIT_MS, the usual call; else an event stream of what belongs to the request (progress,
 * a server request, then the answer), as the transport would have written it. Either is allowed
 * by Streamable HTTP, and every host accepts both.
 *
 * Only a request the transport would have taken as it is comes here (`directRequest`); anything
 * else (a batch, a response, a notification, a header it would refuse) goes through the transport.
 */
export class DirectAnswer {
  readonly reply: Promise<Reply>;
  private resolve!: (reply: Reply) => void;
  private stream: ReadableStreamDefaultController<Uint8Array> | null = null;
  private done = false;
  private readonly timer: NodeJS.Timeout;
  /** When the request went up (performance.now()), once it did. */
  sentAt: number | undefined;

  constructor(
    private readonly sessionId: string,
    private readonly timing: Timing | undefined,
    waitMs = JSON_WAIT_MS,
  ) {
    this.reply = new Promise((resolve) => (this.resolve = resolve));
    this.timer = setTimeout(() => this.startStream(), waitMs);
  }

  /** A message for the host on this request; true once it was the answer (the request is over). */
  deliver(message: JSONRPCMessage, final: boolean): boolean {
    if (this.done) return true;
    const from = performance.now();
    const text = JSON.stringify(message);
    if (final && !this.stream) {
      this.timing?.since("render", from);
      clearTimeout(this.timer);
      this.done = true;
      this.resolve(Reply.raw(text, 200, { ...this.headers("application/json"), "content-length": String(Buffer.byteLength(text)) }));
      return true;
    }
    if (!this.stream) this.startStream();
    this.stream?.enqueue(Buffer.from(`event: message\ndata: ${text}\n\n`));
    if (final) this.end();
    return final;
  }

  /** The session ended before the answer: the host is told so, on whichever answer it has. */
  abandon(id: Id, message: string): void {
    this.deliver({ jsonrpc: "2.0", id, error: { code: -32000, message } }, true);
  }

  /** The host cancelled the request: no answer comes (its stream, if it still reads one, ends). */
  drop(): void {
    this.startStream();
    this.end();
  }

  private startStream() {
    if (this.done || this.stream) return;
    clearTimeout(this.timer);
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => void (this.stream = controller),
      // The host went away: what still comes for this request has nowhere to go.
      cancel: () => void (this.done = true),
    });
    this.resolve(Reply.raw(body, 200, { ...this.headers("text/event-stream"), "cache-control": "no-cache, no-transform", connection: "keep-alive", "x-accel-buffering": "no" }));
  }

  private end() {
    this.done = true;
    try {
      this.stream?.close();
    } catch {
      // cancelled by the host already
    }
  }

  private headers(type: string): Record<string, string> {
    const headers: Record<string, string> = { "content-type": type, "mcp-session-id": this.sessionId };
    if (this.timing) headers[SERVER_TIMING_HEADER] = type === "application/json" ? this.timing.header() : this.soFar(this.timing);
    return headers;
  }

  // An event stream's headers leave before the answer: its Server-Timing has the stages known by
  // then, `upstream` as waited so far (the call's row records the whole of it).
  private soFar(timing: Timing): string {
    if (this.sentAt === undefined) return timing.header();
    const copy = new Timing(timing.startedAt);
    for (const [stage, ms] of Object.entries(timing.stages())) copy.add(stage as Stage, ms);
    copy.since("upstream", this.sentAt);
    return copy.header();
  }
}

/** The request when the host's POST is one the transport would take as it is, else null (the transport answers it). */
export function directRequest(request: RequestHead, parsed: unknown): OneRequest | null {
  if (request.method !== "POST" || parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  const m = parsed as Partial<OneRequest>;
  if (m.jsonrpc !== "2.0" || typeof m.method !== "string" || m.method === "initialize") return null;
  if (typeof m.id !== "string" && !(typeof m.id === "number" && Number.isInteger(m.id))) return null;
  if (m.params !== undefined && (m.params === null || typeof m.params !== "object" || Array.isArray(m.params))) return null;
  const accept = request.headers.get("accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return null;
  if (!isJsonContentType(request.headers.get("content-type"))) return null;
  const version = request.headers.get("mcp-protocol-version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return null;
  return m as OneRequest;
}
