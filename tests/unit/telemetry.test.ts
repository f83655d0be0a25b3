import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { context, propagation, ROOT_CONTEXT, SpanStatusCode, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { headerContext, hostContext, startCallSpan, tracing, withTraceMeta } from "@/lib/core/telemetry";
import { telemetry } from "@/lib/core/telemetry/state";
import { TracedTransport } from "@/lib/mcp/traced-transport";

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const HOST = `00-${TRACE}-00f067aa0ba902b7-01`;

class Wire implements Transport {
  sent: JSONRPCMessage[] = [];
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  async start() {}
  async close() {}
  async send(message: JSONRPCMessage) {
    this.sent.push(message);
  }
}

describe("lib/core/telemetry with the SDK registered", () => {
  beforeAll(() => provider.register({ propagator: new W3CTraceContextPropagator() }));
  afterAll(async () => {
    await provider.shutdown();
    propagation.disable();
    trace.disable();
    context.disable();
  });
  beforeEach(() => {
    exporter.reset();
    telemetry().payloads = false;
  });

  it("is on once a propagator is registered, which is what lib/start does only with an OTLP endpoint", () => {
    expect(tracing()).toBe(true);
  });

  it("puts a call's id and permalink on its span, never its arguments or result unless SWITCHBOARD_TRACE_PAYLOADS says so", () => {
    const span = startCallSpan({ method: "tools/call", name: "echo", origin: "user" });
    span.identify({ id: "call-1", method: "tools/call", name: "echo", params: '{"message":"secret-argument"}' });
    span.end({ status: "ok", isError: false, error: null, result: '{"content":"secret-result"}' });
    const [done] = exporter.getFinishedSpans();
    expect(done!.name).toBe("tools/call echo");
    expect(done!.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "switchboard.call.id": "call-1", "switchboard.call.url": `${telemetry().origin}/calls/call-1` });
    expect(JSON.stringify(done!.attributes)).not.toContain("secret-");

    telemetry().payloads = true;
    const opted = startCallSpan({ method: "tools/call", name: "echo", origin: "user" });
    opted.identify({ id: "call-2", method: "tools/call", name: "echo", params: `{"message":"${"x".repeat(20_000)}"}` });
    opted.end({ status: "ok", isError: false, error: null, result: '{"content":"the result"}' });
    const payload = exporter.getFinishedSpans()[1]!.attributes;
    expect(String(payload["gen_ai.tool.call.arguments"])).toHaveLength(8 * 1024);
    expect(payload["gen_ai.tool.call.result"]).toBe('{"content":"the result"}');
  });

  it("passes a sampled-out call's context on, unsampled, without a span of its own", async () => {
    const wire = new Wire();
    const traced = new TracedTransport(wire, {});
    const unsampled = trace.wrapSpanContext({ traceId: TRACE, spanId: "00f067aa0ba902b7", traceFlags: 0 });
    await context.with(trace.setSpan(ROOT_CONTEXT, unsampled), () => traced.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo" } }));
    expect((wire.sent[0] as unknown as { params: { _meta: { traceparent: string } } }).params._meta.traceparent).toBe(`00-${TRACE}-00f067aa0ba902b7-00`);
    wire.onmessage!({ jsonrpc: "2.0", id: 1, result: { content: [] } });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it("names a resource by its URI as history recorded it (secret values masked), never as sent", async () => {
    const wire = new Wire();
    const traced = new TracedTransport(wire, {});
    const span = startCallSpan({ method: "resources/read", name: "db://admin:hunter2@host/table", origin: "user" });
    span.identify({ id: "call-r", method: "resources/read", name: "db://admin:••••••@host/table", params: "{}" });
    await span.run(() => traced.send({ jsonrpc: "2.0", id: 5, method: "resources/read", params: { uri: "db://admin:hunter2@host/table" } }));
    wire.onmessage!({ jsonrpc: "2.0", id: 5, result: { contents: [] } });
    span.end({ status: "ok", isError: false, error: null, result: null });
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.attributes["mcp.resource.uri"])).toEqual(["db://admin:••••••@host/table", "db://admin:••••••@host/table"]);
    expect(JSON.stringify(spans.map((s) => [s.name, s.attributes]))).not.toContain("hunter2");
  });

  it("marks errors as the conventions say: the JSON-RPC code, tool_error, or the kind of failure; ends once", () => {
    const cases = [
      [{ status: "error", isError: false, error: JSON.stringify({ kind: "protocol", code: -32602, message: "Unknown tool" }), result: null }, "-32602"],
      [{ status: "error", isError: true, error: null, result: "{}" }, "tool_error"],
      [{ status: "timeout", isError: false, error: JSON.stringify({ kind: "timeout", message: "Timed out" }), result: null }, "timeout"],
    ] as const;
    for (const [completion] of cases) {
      const span = startCallSpan({ method: "tools/call", name: "t", origin: "gateway" });
      span.end(completion);
      span.end({ status: "ok", isError: false, error: null, result: null });
      span.fail(new Error("late"));
    }
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(3);
    expect(spans.map((s) => s.attributes["error.type"])).toEqual(cases.map((c) => c[1]));
    expect(spans.every((s) => s.status.code === SpanStatusCode.ERROR)).toBe(true);
  });

  it("continues a host's _meta trace context, linking the HTTP request's; an unparsable or huge traceparent is ignored", () => {
    const ambient = headerContext({ traceparent: `00-${"1".repeat(32)}-${"2".repeat(16)}-01` });
    const { parent, links } = hostContext({ traceparent: HOST, progressToken: 7 }, ambient);
    expect(trace.getSpanContext(parent)!.traceId).toBe(TRACE);
    expect(links.map((l) => l.context.spanId)).toEqual(["2".repeat(16)]);
    for (const hostile of [`00-${"z".repeat(32)}-00f067aa0ba902b7-01`, "x".repeat(100_000), `ff-${TRACE}-00f067aa0ba902b7-01`, 42]) {
      expect(hostContext({ traceparent: hostile }, ambient).parent).toBe(ambient);
    }
    expect(headerContext({ traceparent: "a".repeat(100_000) })).toBe(ROOT_CONTEXT);
  });

  it("injects the active context into params._meta, keeping the host's other keys; nothing outside a span", () => {
    const params = { name: "echo", _meta: { progressToken: 3 } };
    expect(withTraceMeta(params, ROOT_CONTEXT)).toBe(params);
    const span = trace.getTracer("t").startSpan("s");
    const meta = withTraceMeta(params, trace.setSpan(ROOT_CONTEXT, span))._meta as Record<string, unknown>;
    expect(meta).toMatchObject({ progressToken: 3, traceparent: `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01` });
    expect(params._meta).toEqual({ progressToken: 3 });
    span.end();
  });

  it("gives each request sent in a traced call a client span carried in _meta, ended by its answer; other requests pass untouched", async () => {
    const wire = new Wire();
    const traced = new TracedTransport(wire, { url: new URL("http://127.0.0.1:9/mcp"), protocol: "http" });
    const ping = { jsonrpc: "2.0" as const, id: 1, method: "ping" };
    await traced.send(ping);
    expect(wire.sent[0]).toBe(ping);

    const call = startCallSpan({ method: "tools/call", name: "echo", origin: "user" });
    call.identify({ id: "call-9", method: "tools/call", name: "echo", params: "{}" });
    await call.run(() => traced.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } }));
    const sent = wire.sent[1] as unknown as { params: { _meta: { traceparent: string } } };
    wire.onmessage!({ jsonrpc: "2.0", id: 2, error: { code: -32602, message: "Unknown tool: echo" } });
    call.end({ status: "error", isError: false, error: null, result: null });
    const client = exporter.getFinishedSpans().find((s) => s.kind === 2)!;
    expect(sent.params._meta.traceparent).toBe(`00-${call.traceId}-${client.spanContext().spanId}-01`);
    expect(client.attributes).toMatchObject({ "jsonrpc.request.id": "2", "error.type": "-32602", "server.address": "127.0.0.1", "server.port": 9, "switchboard.call.url": `${telemetry().origin}/calls/call-9` });
    expect(client.status).toEqual({ code: SpanStatusCode.ERROR, message: "Unknown tool: echo" });
  });
});
