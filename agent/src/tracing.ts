import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { mcpAttributes, mcpOutcome, mcpSpanName } from "../../lib/core/telemetry/conventions";

type Message = { id?: string | number; method?: unknown; params?: Record<string, unknown>; result?: { isError?: unknown }; error?: { code?: unknown; message?: unknown } };
const carrier = {
  get: (c: Record<string, unknown>, key: string) => (typeof c[key] === "string" ? (c[key] as string) : undefined),
  keys: (c: Record<string, unknown>) => Object.keys(c),
};
// Requests of one session waiting for their answer; beyond this the oldest spans end unanswered.
const MAX_OPEN = 10_000;

/**
 * The agent's part of a traced call: a console request that carries trace context in
 * `params._meta` (lib/mcp's TracedTransport put it there) gets a CLIENT span on that trace for
 * its way to the stdio server, whose context replaces the console's in `_meta`; it ends with the
 * server's answer. Requests without trace context pass untouched. On only when the agent's own
 * environment names an OTLP endpoint (the standard OTEL_EXPORTER_OTLP_* variables).
 */
export class AgentTracer {
  private readonly open = new Map<string, Map<string, Span>>();

  private constructor(private readonly provider: NodeTracerProvider) {}

  static fromEnv(env: NodeJS.ProcessEnv, version: string): AgentTracer | null {
    if (!(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) || env.OTEL_SDK_DISABLED?.toLowerCase() === "true") return null;
    const resource = defaultResource().merge(resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME || "switchboard-agent", "service.version": version }));
    const provider = new NodeTracerProvider({ resource, spanLimits: { attributeValueLengthLimit: Number(env.OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT) || 4096 }, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
    provider.register({ propagator: new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }) });
    return new AgentTracer(provider);
  }

  /** A console message on its way to `server`'s process: returned with this span's context if it is a traced request. */
  sending(session: string, server: string, pid: number | null, message: unknown): unknown {
    const m = message as Message;
    const meta = m.params?._meta as Record<string, unknown> | undefined;
    if (typeof m.method !== "string" || m.id === undefined || typeof meta?.traceparent !== "string") return message;
    const parent = propagation.extract(context.active(), meta, carrier);
    const name = typeof m.params?.name === "string" ? m.params.name : null;
    const span = trace.getTracer("switchboard-agent").startSpan(
      mcpSpanName(m.method, name),
      {
        kind: SpanKind.CLIENT,
        attributes: {
          // No resource URI: it may hold a secret, and the console's span above has it masked.
          ...mcpAttributes({ method: m.method, name, id: m.id }),
          "network.transport": "pipe",
          "switchboard.agent.server": server,
          ...(pid !== null ? { "process.pid": pid } : {}),
        },
      },
      parent,
    );
    const spans = this.open.get(session) ?? new Map<string, Span>();
    this.open.set(session, spans);
    spans.set(JSON.stringify(m.id), span);
    if (spans.size > MAX_OPEN) this.settle(session, spans.keys().next().value!, { error: { code: "unanswered" } });
    const out: Record<string, unknown> = { ...meta };
    propagation.inject(trace.setSpan(parent, span), out);
    return { ...m, params: { ...m.params, _meta: out } };
  }

  /** A message from the server's process: an answer ends its request's span. */
  received(session: string, message: unknown): void {
    const m = message as Message;
    if (m.method === undefined && m.id !== undefined) this.settle(session, JSON.stringify(m.id), m);
  }

  /** The session's process is gone: what it never answered ends as an error. */
  ended(session: string, reason: string): void {
    for (const key of [...(this.open.get(session)?.keys() ?? [])]) this.settle(session, key, { error: { code: reason } });
    this.open.delete(session);
  }

  shutdown(): Promise<void> {
    return this.provider.shutdown().catch(() => undefined);
  }

  private settle(session: string, key: string, answer: Message) {
    const spans = this.open.get(session);
    const span = spans?.get(key);
    if (!span) return;
    spans!.delete(key);
    const { attributes, error } = mcpOutcome(answer);
    span.setAttributes(attributes);
    if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    span.end();
  }
}
