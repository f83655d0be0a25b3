import type { JSONRPCMessage, Transport, TransportSendOptions } from "@modelcontextprotocol/client";
import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";
import { callOfContext, mcpAttributes, mcpOutcome, mcpSpanName, tracer, tracing, withTraceMeta } from "@/lib/core/telemetry/context";
import { TransportDecorator } from "./transport-decorator";

// Requests waiting for their answer; beyond this the oldest spans end unanswered.
const MAX_OPEN = 10_000;

/** Where a traced transport goes, for the spans' network attributes (none for the in-memory demo). */
export interface TracedPeer {
  url?: URL;
  protocol?: "http" | "websocket";
}

/** The peer of a session's transport: the server's URL over HTTP, the agent's WebSocket for a relayed one. */
export function tracedPeer(kind: string, url: string): TracedPeer {
  if (kind === "relay") return { protocol: "websocket" };
  if (kind !== "streamable-http" && kind !== "sse") return {};
  try {
    return { url: new URL(url), protocol: "http" };
  } catch {
    return { protocol: "http" };
  }
}

/**
 * The upstream side of a traced call: each request sent while a call's span is active gets a
 * CLIENT span (the MCP conventions' client span) whose context rides in `params._meta` and, by the
 * HTTP transport's fetch, in the `traceparent` header; it ends with the answer. Requests outside a
 * traced call (pings, lists the console makes on its own) and every request while nothing is
 * exported pass untouched; one in a call the sampler left out carries its context, unsampled.
 */
export class TracedTransport extends TransportDecorator {
  private readonly open = new Map<string, Span>();
  private readonly network: Attributes;

  constructor(inner: Transport, peer: TracedPeer) {
    super(inner);
    this.network = peer.protocol ? { "network.transport": "tcp", "network.protocol.name": peer.protocol } : {};
    if (peer.url) {
      this.network["server.address"] = peer.url.hostname;
      this.network["server.port"] = Number(peer.url.port || (peer.url.protocol === "https:" ? 443 : 80));
    }
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const m = message as { id?: string | number; method?: unknown; params?: Record<string, unknown> };
    const active = trace.getSpan(context.active());
    if (!tracing() || typeof m.method !== "string" || m.id === undefined || !active) return super.send(message, options);
    // A call the sampler left out records nothing here, but its context (not sampled) still goes on.
    if (!active.isRecording()) return super.send({ ...message, params: withTraceMeta(m.params) } as JSONRPCMessage, options);
    const params = m.params ?? {};
    const name = typeof params.name === "string" ? params.name : null;
    const call = callOfContext(context.active());
    const span = tracer().startSpan(mcpSpanName(m.method, name), {
      kind: SpanKind.CLIENT,
      attributes: {
        // The URI as the call recorded it (secret values masked), never the one sent.
        ...mcpAttributes({ method: m.method, name, uri: call?.uri, id: m.id, sessionId: this.sessionId }),
        ...this.network,
        ...(call?.url ? { "switchboard.call.id": call.id, "switchboard.call.url": call.url } : {}),
      },
    });
    const key = JSON.stringify(m.id);
    this.open.get(key)?.end();
    this.open.set(key, span);
    if (this.open.size > MAX_OPEN) this.settle(this.open.keys().next().value!, { error: { code: "unanswered" } });
    const ctx = trace.setSpan(context.active(), span);
    const sent = { ...message, params: withTraceMeta(m.params, ctx) } as JSONRPCMessage;
    return context.with(ctx, () => super.send(sent, options)).catch((err: unknown) => {
      this.settle(key, { error: { code: "send_failed", message: err instanceof Error ? err.message : String(err) } });
      throw err;
    });
  }

  override close(): Promise<void> {
    for (const key of [...this.open.keys()]) this.settle(key, { error: { code: "connection_closed" } });
    return super.close();
  }

  protected override inbound(message: JSONRPCMessage): void {
    const m = message as { id?: unknown; method?: unknown; result?: { isError?: unknown }; error?: { code?: unknown; message?: unknown } };
    if (this.open.size === 0 || m.method !== undefined || m.id === undefined) return;
    this.settle(JSON.stringify(m.id), m);
  }

  private settle(key: string, answer: Parameters<typeof mcpOutcome>[0]) {
    const span = this.open.get(key);
    if (!span) return;
    this.open.delete(key);
    const { attributes, error } = mcpOutcome(answer);
    span.setAttributes(attributes);
    if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    span.end();
  }
}
