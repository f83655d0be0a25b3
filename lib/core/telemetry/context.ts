// Trace context in and out, and the active call: what lib/mcp and the gateway need, with no state of the console's.
import { context, createContextKey, isSpanContextValid, propagation, ROOT_CONTEXT, trace, type Context, type Link, type TextMapGetter } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";

export { mcpAttributes, mcpOutcome, mcpSpanName } from "./conventions";

// Extraction works whether or not spans are exported: a host's trace id is recorded on its call either way.
const w3c = new W3CTraceContextPropagator();
const record: TextMapGetter<Record<string, unknown>> = {
  get: (carrier, key) => (typeof carrier[key] === "string" ? (carrier[key] as string) : undefined),
  keys: (carrier) => Object.keys(carrier),
};

// The call a context belongs to: the upstream side's spans carry its permalink too (lib/mcp's TracedTransport).
export const CALL = createContextKey("switchboard.call");
export type CallRef = { id: string; url: string; uri: string | null };

export function callOfContext(ctx: Context): CallRef | undefined {
  const call = ctx.getValue(CALL) as CallRef | undefined;
  return call?.url ? call : undefined;
}

/** The active span's trace id, if there is a valid one (a call's row records it). */
export function activeTraceId(): string | null {
  const active = trace.getSpanContext(context.active());
  return active && isSpanContextValid(active) ? active.traceId : null;
}

export function tracer() {
  return trace.getTracer("switchboard");
}

/**
 * The context a host's request continues (the conventions' rule for an MCP server span): the one
 * in its `params._meta` if it sent one, else `ambient` (the HTTP request's, or none).
 */
export function hostContext(meta: unknown, ambient: Context = context.active()): { parent: Context; links: Link[] } {
  if (!meta || typeof meta !== "object" || typeof (meta as Record<string, unknown>).traceparent !== "string") return { parent: ambient, links: [] };
  const carrier = meta as Record<string, unknown>;
  const parent = propagation.extract(w3c.extract(ROOT_CONTEXT, carrier, record), carrier, record);
  const sent = trace.getSpanContext(parent);
  // A traceparent that does not parse (W3C's strict format) is no context at all.
  if (!sent || !isSpanContextValid(sent)) return { parent: ambient, links: [] };
  const around = trace.getSpanContext(ambient);
  return { parent, links: around && isSpanContextValid(around) ? [{ context: around }] : [] };
}

/** The W3C trace context of an incoming HTTP request (an API client's or a host's), over `ambient`. */
export function headerContext(headers: { get(name: string): string | null } | Record<string, string | string[] | undefined>, ambient: Context = ROOT_CONTEXT): Context {
  const read = (name: string) => {
    const value = typeof headers.get === "function" ? (headers as { get(n: string): string | null }).get(name) : (headers as Record<string, string | string[] | undefined>)[name];
    return Array.isArray(value) ? value[0] : (value ?? undefined);
  };
  const carrier: Record<string, unknown> = {};
  for (const key of ["traceparent", "tracestate", "baggage"]) {
    const value = read(key);
    if (value) carrier[key] = value;
  }
  return carrier.traceparent ? propagation.extract(w3c.extract(ambient, carrier, record), carrier, record) : ambient;
}

/** Adds the active trace context to `params._meta` (a copy); params unchanged when nothing is traced. */
export function withTraceMeta<P extends Record<string, unknown> | undefined>(params: P, ctx: Context = context.active()): P {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  if (!carrier.traceparent) return params;
  const meta = params?._meta && typeof params._meta === "object" ? (params._meta as Record<string, unknown>) : {};
  return { ...(params ?? {}), _meta: { ...meta, ...carrier } } as unknown as P;
}

/** Sets the active trace context on outgoing HTTP headers (nothing when nothing is traced). */
export function injectTraceHeaders(headers: Headers, ctx: Context = context.active()): void {
  propagation.inject(ctx, headers, { set: (carrier, key, value) => carrier.set(key, value) });
}

/**
 * Whether spans are exported (lib/start registered the SDK: OTEL_EXPORTER_OTLP_ENDPOINT or its
 * traces variant set). Read from OpenTelemetry's own global, the propagator it registered, so
 * that lib/mcp asks without reaching the console's runtime.
 */
export function tracing(): boolean {
  return propagation.fields().length > 0;
}

