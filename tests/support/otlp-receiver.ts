import { startSinkReceiver } from "./sink-receiver";

/** One span as an OTLP/HTTP JSON export carries it, with its attributes flattened and its service's name. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status: { code?: number; message?: string };
  links: { traceId: string; spanId: string }[];
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: { key: string; value: AnyValue }[]; status?: ReceivedSpan["status"]; links?: { traceId: string; spanId: string }[] };
type Export = { resourceSpans?: { resource?: { attributes?: { key: string; value: AnyValue }[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[] };

const valueOf = (v: AnyValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.boolValue ?? v.doubleValue ?? "";
const flatten = (list: { key: string; value: AnyValue }[] = []) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/**
 * An OpenTelemetry collector stand-in on loopback: accepts OTLP/HTTP trace exports (JSON, as
 * @opentelemetry/exporter-trace-otlp-http sends them) and decodes their spans.
 */
export async function startOtlpReceiver() {
  const sink = await startSinkReceiver();
  const spans = (): ReceivedSpan[] =>
    sink.received
      .filter((r) => r.path === "/v1/traces")
      .flatMap((r) => {
        if (!String(r.headers["content-type"]).includes("json")) throw new Error(`expected OTLP/JSON, got ${r.headers["content-type"]}`);
        return (JSON.parse(r.body) as Export).resourceSpans ?? [];
      })
      .flatMap((rs) => {
        const service = String(flatten(rs.resource?.attributes)["service.name"] ?? "");
        return (rs.scopeSpans ?? []).flatMap((ss) => ss.spans ?? []).map((s) => ({
          service,
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? "",
          name: s.name,
          kind: s.kind,
          attributes: flatten(s.attributes),
          status: s.status ?? {},
          links: (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
        }));
      });
  return {
    url: sink.url,
    spans,
    /** Everything the receiver was sent, as text (to prove what never appears in it). */
    raw: () => sink.received.map((r) => r.body).join("\n"),
    requests: () => sink.received.length,
    /** `down` answers 503, `hold` never answers (a collector gone silent), `up` accepts. */
    set: sink.set,
    held: sink.held,
    dropHeld: sink.dropHeld,
    close: sink.close,
  };
}

export type OtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;

/** A W3C traceparent of a trace a test starts (the host's side). */
export function hostTraceparent(): { traceparent: string; traceId: string; spanId: string } {
  const hex = (bytes: number) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
  const traceId = hex(16);
  const spanId = hex(8);
  return { traceparent: `00-${traceId}-${spanId}-01`, traceId, spanId };
}
