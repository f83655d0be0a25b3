import crypto from "node:crypto";
import { context, isSpanContextValid, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Link, type Span } from "@opentelemetry/api";
import { mcpAttributes, mcpSpanName } from "./conventions";
import { CALL, tracer, type CallRef } from "./context";
import { telemetry } from "./state";

// What history records of a call's arguments and result is masked already; a span holds at most this much of it.
const PAYLOAD_CHARS = 8 * 1024;

export interface CallSpanStart {
  method: string;
  name: string;
  /** lib/domains/calls' origin: "gateway" and "mock" calls are a host's, answered here (a server span). */
  origin: string;
  /** The host's context (`hostContext`); else the active one. */
  parent?: Context;
  links?: Link[];
  sessionId?: string | null;
  client?: string | null;
}

/** A call's span: its trace id goes on the call's row, its permalink on the span. */
export interface CallSpan {
  readonly traceId: string;
  readonly context: Context;
  run<T>(fn: () => T): T;
  /** The call's row exists: its id and permalink, a resource's URI as recorded (and, with SWITCHBOARD_TRACE_PAYLOADS, its masked arguments). */
  identify(call: { id: string; method: string; name: string; params: string }): void;
  /** How it ended, from its completion row (`error` as recorded: JSON of lib/domains/calls' CallError). Once; later ends are ignored. */
  end(completion: { status: string; isError: boolean; error: string | null; result: string | null }): void;
  /** It ended by a throw before or instead of a completion (a refusal, bad arguments). */
  fail(err: unknown): void;
}

export function startCallSpan(start: CallSpanStart): CallSpan {
  const parent = start.parent ?? context.active();
  const host = start.origin === "gateway" || start.origin === "mock";
  // A resource's URI waits for the call's row: the recorded one has the server's secret values masked.
  const attributes: Attributes = { ...mcpAttributes({ method: start.method, name: start.name, sessionId: start.sessionId }), "switchboard.call.origin": start.origin };
  if (start.client) attributes["switchboard.client"] = start.client;
  const span = tracer().startSpan(mcpSpanName(start.method, start.name), { kind: host ? SpanKind.SERVER : SpanKind.INTERNAL, attributes, links: start.links }, parent);
  const ref: CallRef = { id: "", url: "", uri: null };
  const ctx = trace.setSpan(parent, span).setValue(CALL, ref);
  const spanContext = span.spanContext();
  let ended = false;
  return {
    traceId: isSpanContextValid(spanContext) ? spanContext.traceId : crypto.randomBytes(16).toString("hex"),
    context: ctx,
    run: (fn) => context.with(ctx, fn),
    identify(row) {
      Object.assign(ref, { id: row.id, url: permalink(row.id), uri: row.method === "resources/read" ? row.name : null });
      span.setAttributes({ "switchboard.call.id": ref.id, "switchboard.call.url": ref.url, ...(ref.uri ? { "mcp.resource.uri": ref.uri } : {}) });
      if (telemetry().payloads) span.setAttribute("gen_ai.tool.call.arguments", row.params.slice(0, PAYLOAD_CHARS));
    },
    end(completion) {
      if (!ended) endCallSpan(span, completion);
      ended = true;
    },
    fail(err) {
      if (ended) return;
      ended = true;
      const code = err && typeof err === "object" && "code" in err ? String((err as { code: unknown }).code) : err instanceof Error ? err.name : "error";
      span.setAttribute("error.type", code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      span.end();
    },
  };
}

function endCallSpan(span: Span, completion: Parameters<CallSpan["end"]>[0]) {
  if (!span.isRecording()) return;
  let error: { kind?: string; code?: number; message?: string } | null = null;
  try {
    error = completion.error ? (JSON.parse(completion.error) as typeof error) : null;
  } catch {
    error = { message: completion.error ?? undefined };
  }
  span.setAttribute("switchboard.call.status", completion.status);
  if (error) {
    const type = error.kind === "protocol" && error.code !== undefined ? String(error.code) : (error.kind ?? completion.status);
    span.setAttribute("error.type", type);
    if (error.code !== undefined) span.setAttribute("rpc.response.status_code", String(error.code));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message ?? type });
  } else if (completion.isError) {
    span.setAttribute("error.type", "tool_error");
    span.setStatus({ code: SpanStatusCode.ERROR, message: "tool_error" });
  }
  if (telemetry().payloads && completion.result) span.setAttribute("gen_ai.tool.call.result", completion.result.slice(0, PAYLOAD_CHARS));
  span.end();
}

/** A call's page in the console (SWITCHBOARD_URL, else the address it listens on). */
export function permalink(callId: string): string {
  return `${telemetry().origin}/calls/${encodeURIComponent(callId)}`;
}
