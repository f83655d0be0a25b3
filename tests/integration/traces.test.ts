import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupOwner, startConsole, waitFor, type ConsoleHandle } from "../support/console";
import { gatewayHost } from "../support/gateway-hosts";
import { hostTraceparent, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../support/otlp-receiver";
import { EVERYTHING, ROOT, pairNewAgent, serverId, startAgent, waitForAgent, type RunningAgent } from "./relay-support";

type Api = Awaited<ReturnType<typeof setupOwner>>["api"];
const TAP = path.join(ROOT, "tests/fixtures/stdio-tap.mjs");
const SERVER = 2;
const CLIENT = 3;
const INTERNAL = 1;
// Batched spans leave within this (the SDK's OTEL_BSP_SCHEDULE_DELAY), so a test waits on them, not on a clock.
const OTEL = { OTEL_BSP_SCHEDULE_DELAY: "50" };

interface Scene {
  sb: ConsoleHandle;
  api: Api;
  agent: RunningAgent;
  id: string;
  url: string;
  token: string;
  /** What the stdio server read on its stdin. */
  written(): { method?: string; params?: { name?: string; arguments?: Record<string, unknown>; _meta?: Record<string, string> } }[];
}

async function scene(consoleEnv: Record<string, string>, agentEnv: Record<string, string>): Promise<Scene> {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-trace-tap-")), "stdin.ndjson");
  const sb = await startConsole({ env: consoleEnv });
  const { api } = await setupOwner(sb.url);
  const paired = await pairNewAgent(api, sb.url, "traced-agent");
  const agent = startAgent(paired.home, { mcpServers: { everything: { command: process.execPath, args: [TAP, log, process.execPath, EVERYTHING, "stdio"] } } }, { env: agentEnv });
  await waitForAgent(api, paired.agentId, "online", 20_000, () => agent.output());
  const id = await serverId(api, "everything");
  const { path: endpoint } = (await api("PUT", `/api/v1/servers/${id}/exposure`, { enabled: true })).body.exposure;
  const token = (await api("POST", "/api/v1/tokens", { name: "host", scopes: ["gateway"] })).body.secret;
  const written = () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : []);
  return { sb, api, agent, id, url: `${sb.url}${endpoint}`, token, written };
}

const parentOf = (spans: ReceivedSpan[], span: ReceivedSpan) => spans.find((s) => s.spanId === span.parentSpanId);
const parentIdOf = (traceparent: string) => traceparent.split("-")[2];

describe("OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT set, for the console and the agent)", () => {
  let receiver: OtlpReceiver;
  let s: Scene;
  let host: Client;
  let hostTransport: StreamableHTTPClientTransport;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const otel = { ...OTEL, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
    s = await scene({ ...otel, OTEL_SERVICE_NAME: "switchboard-under-test", SWITCHBOARD_TRACE_LINK: "http://127.0.0.1:16686/trace/{traceId}" }, otel);
    host = new Client({ name: "traced-host", version: "1.0" });
    hostTransport = new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { authorization: `Bearer ${s.token}` } } });
    await host.connect(hostTransport);
  });
  afterAll(async () => {
    await host?.close().catch(() => undefined);
    await s?.agent.stop("SIGKILL");
    await s?.sb.stop();
    await receiver?.close();
  });

  /** The spans of one trace once the console's and the agent's have both arrived. */
  async function traceOf(traceId: string, want: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
    let spans: ReceivedSpan[] = [];
    await waitFor(() => want((spans = receiver.spans().filter((x) => x.traceId === traceId))), 15_000);
    return spans;
  }

  async function gatewayCall(name: string) {
    let call: any;
    await waitFor(async () => (call = (await s.api("GET", "/api/v1/calls?origin=gateway")).body.items.find((c: any) => c.name === name && c.status !== "pending")));
    return (await s.api("GET", `/api/v1/calls/${call.id}`)).body.call;
  }

  it("continues a host's trace (params._meta) through the gateway, the upstream call and the relaying agent, to the stdio server", async () => {
    const marker = `argument-value-${crypto.randomUUID()}`;
    const traced = hostTraceparent();
    const result = await host.callTool({ name: "echo", arguments: { message: marker }, _meta: { traceparent: traced.traceparent } });
    expect(result.content).toEqual([{ type: "text", text: `Echo: ${marker}` }]);

    const spans = await traceOf(traced.traceId, (all) => all.some((x) => x.service === "switchboard-agent") && all.filter((x) => x.service === "switchboard-under-test").length >= 2);
    const gateway = spans.find((x) => x.service === "switchboard-under-test" && x.kind === SERVER)!;
    expect(gateway).toMatchObject({ name: "tools/call echo", parentSpanId: traced.spanId });
    expect(gateway.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "gen_ai.operation.name": "execute_tool", "switchboard.call.origin": "gateway", "switchboard.client": "traced-host 1.0" });
    expect(gateway.attributes["mcp.session.id"]).toBe(hostTransport.sessionId);
    // The HTTP request the message came in is linked (its own trace: the host sent no traceparent header).
    expect(gateway.links.length).toBe(1);

    const upstream = spans.find((x) => x.service === "switchboard-under-test" && x.kind === CLIENT)!;
    expect(parentOf(spans, upstream)).toBe(gateway);
    expect(upstream.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "network.protocol.name": "websocket", "switchboard.call.id": gateway.attributes["switchboard.call.id"] });

    const relayed = spans.find((x) => x.service === "switchboard-agent")!;
    expect(relayed).toMatchObject({ name: "tools/call echo", kind: CLIENT });
    expect(parentOf(spans, relayed)).toBe(upstream);
    expect(relayed.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "network.transport": "pipe", "switchboard.agent.server": "everything" });

    // The call's permalink is on its spans, and its page shows the host's trace id.
    const call = await gatewayCall("echo");
    expect(gateway.attributes["switchboard.call.url"]).toBe(`${s.sb.url}/calls/${call.id}`);
    expect(upstream.attributes["switchboard.call.url"]).toBe(gateway.attributes["switchboard.call.url"]);
    expect(call.traceId).toBe(traced.traceId);
    expect(call.traceUrl).toBe(`http://127.0.0.1:16686/trace/${traced.traceId}`);

    // The stdio server read the agent's span as the parent of its work.
    const sent = s.written().find((m) => m.method === "tools/call" && m.params?.arguments?.message === marker)!;
    expect(sent.params!._meta!.traceparent).toContain(traced.traceId);
    expect(parentIdOf(sent.params!._meta!.traceparent!)).toBe(relayed.spanId);

    // Arguments and results stay out of spans by default.
    expect(receiver.raw()).not.toContain(marker);
  });

  it("continues a modern-era host's trace too (the bridged path), and an HTTP traceparent header when _meta has none", async () => {
    const modern = await gatewayHost(s.url, s.token, { name: "modern-traced-host" });
    try {
      const traced = hostTraceparent();
      await modern.callTool({ name: "get-sum", arguments: { a: 2, b: 3 }, _meta: { traceparent: traced.traceparent } });
      const spans = await traceOf(traced.traceId, (all) => all.some((x) => x.service === "switchboard-agent"));
      const gateway = spans.find((x) => x.kind === SERVER && x.name === "tools/call get-sum")!;
      expect(gateway.parentSpanId).toBe(traced.spanId);
      const upstream = spans.find((x) => x.service === "switchboard-under-test" && x.kind === CLIENT)!;
      expect(parentOf(spans, upstream)).toBe(gateway);
      expect(parentOf(spans, spans.find((x) => x.service === "switchboard-agent")!)).toBe(upstream);
    } finally {
      await modern.close();
    }

    const header = hostTraceparent();
    const viaHeader = new Client({ name: "header-host", version: "1.0" });
    await viaHeader.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { authorization: `Bearer ${s.token}`, traceparent: header.traceparent } } }));
    try {
      await viaHeader.callTool({ name: "echo", arguments: { message: "header" } });
      const spans = await traceOf(header.traceId, (all) => all.some((x) => x.kind === SERVER && x.name === "tools/call echo"));
      // Each of the host's HTTP requests carried the header: the one the call came in is the call span's parent.
      const http = parentOf(spans, spans.find((x) => x.name === "tools/call echo" && x.kind === SERVER)!)!;
      expect(http).toMatchObject({ kind: SERVER, parentSpanId: header.spanId });
      expect(http.attributes).toMatchObject({ "http.request.method": "POST", "http.response.status_code": 200 });
      expect(http.attributes["http.route"]).toMatch(/^\/mcp\//);
    } finally {
      await viaHeader.close();
    }
  });

  it("traces a call made through the API: its HTTP span, the call, the upstream request, the agent; an error is marked", async () => {
    const api = hostTraceparent();
    const res = await s.api("POST", `/api/v1/servers/${s.id}/tools/call`, { name: "echo", arguments: { message: "from the API" } }, { traceparent: api.traceparent });
    expect(res.status).toBe(200);
    const { call } = res.body as { call: { id: string; traceId: string } };
    expect(call.traceId).toBe(api.traceId);
    const spans = await traceOf(api.traceId, (all) => all.some((x) => x.service === "switchboard-agent") && all.some((x) => x.kind === SERVER));
    const http = spans.find((x) => x.kind === SERVER)!;
    expect(http).toMatchObject({ parentSpanId: api.spanId, name: "POST /api/v1/servers/:id/tools/call" });
    expect(http.attributes["http.response.status_code"]).toBe(200);
    const own = spans.find((x) => x.kind === INTERNAL)!;
    expect(parentOf(spans, own)).toBe(http);
    expect(own.attributes).toMatchObject({ "switchboard.call.id": call.id, "switchboard.call.url": `${s.sb.url}/calls/${call.id}`, "switchboard.call.origin": "user", "switchboard.call.status": "ok" });
    const upstream = spans.find((x) => x.service === "switchboard-under-test" && x.kind === CLIENT)!;
    expect(parentOf(spans, upstream)).toBe(own);
    expect(parentOf(spans, spans.find((x) => x.service === "switchboard-agent")!)).toBe(upstream);

    // A tool that does not exist: the server's JSON-RPC error is the span's error.type and status.
    const failing = hostTraceparent();
    await s.api("POST", `/api/v1/servers/${s.id}/tools/call`, { name: "no-such-tool", arguments: {}, skipValidation: true }, { traceparent: failing.traceparent });
    // Trace context that does not parse, or is huge, is no context: the call is served and gets a trace of its own.
    for (const hostile of ["00-not-a-trace-01", `00-${"f".repeat(32)}-${"0".repeat(16)}-01`, "x".repeat(7000)]) {
      const served = await s.api("POST", `/api/v1/servers/${s.id}/tools/call`, { name: "echo", arguments: { message: "hostile" } }, { traceparent: hostile, tracestate: hostile });
      expect(served.status).toBe(200);
      expect(served.body.call.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(served.body.call.traceId).not.toBe("f".repeat(32));
    }
    const hostileHost = await host.callTool({ name: "echo", arguments: { message: "hostile meta" }, _meta: { traceparent: "y".repeat(50_000), tracestate: 7 } as never });
    expect(hostileHost.content).toEqual([{ type: "text", text: "Echo: hostile meta" }]);
    const failed = await traceOf(failing.traceId, (all) => all.some((x) => x.kind === INTERNAL && x.attributes["error.type"] !== undefined));
    const failedCall = failed.find((x) => x.kind === INTERNAL)!;
    expect(failedCall.status.code).toBe(2);
    expect(["-32602", "-32601", "tool_error"]).toContain(String(failedCall.attributes["error.type"]));
  });

  it("traces a collection run as one trace: the run, each step, the step's call and its way to the server", async () => {
    const steps = [1, 2].map((n) => ({ id: `s${n}`, serverId: s.id, method: "tools/call", name: "echo", arguments: { message: `step ${n}` } }));
    const collection = (await s.api("POST", "/api/v1/collections", { name: "traced", steps })).body.collection;
    const runId = (await s.api("POST", `/api/v1/collections/${collection.id}/runs`, {})).body.run.id;
    let run: ReceivedSpan | undefined;
    await waitFor(() => (run = receiver.spans().find((x) => x.attributes["switchboard.run.id"] === runId && x.name === "collection run traced")) !== undefined, 15_000);
    expect(run!.attributes["switchboard.status"]).toBe("passed");
    const spans = await traceOf(run!.traceId, (all) => all.filter((x) => x.service === "switchboard-agent").length === 2);
    const stepSpans = spans.filter((x) => x.parentSpanId === run!.spanId);
    expect(stepSpans.map((x) => x.name).sort()).toEqual(["step 1 tools/call", "step 2 tools/call"]);
    for (const step of stepSpans) {
      const call = spans.find((x) => x.parentSpanId === step.spanId)!;
      expect(call.attributes).toMatchObject({ "switchboard.call.origin": "collection", "gen_ai.tool.name": "echo" });
      const upstream = spans.find((x) => x.parentSpanId === call.spanId)!;
      expect(spans.find((x) => x.service === "switchboard-agent" && x.parentSpanId === upstream.spanId)).toBeDefined();
    }
  });

  it("keeps calls off the export's path: a collector that refuses or never answers slows no call, and spans flow again when it is back", async () => {
    for (const mode of ["hold", "down"] as const) {
      receiver.set(mode);
      const before = mode === "hold" ? receiver.held() : 0;
      for (let i = 0; i < 3; i++) {
        const res = await s.api("POST", `/api/v1/servers/${s.id}/tools/call`, { name: "echo", arguments: { message: `${mode} ${i}` } });
        expect(res.body.call.status).toBe("ok");
      }
      // The exports were tried meanwhile (held open, or refused), and the calls answered regardless.
      if (mode === "hold") await waitFor(() => receiver.held() > before, 15_000);
    }
    receiver.set("up");
    receiver.dropHeld();
    const back = hostTraceparent();
    await s.api("POST", `/api/v1/servers/${s.id}/tools/call`, { name: "echo", arguments: { message: "back" } }, { traceparent: back.traceparent });
    await traceOf(back.traceId, (all) => all.some((x) => x.kind === INTERNAL));
  });
});

describe("without OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene({ OTEL_SERVICE_NAME: "untraced" }, {});
  });
  afterAll(async () => {
    await s?.agent.stop("SIGKILL");
    await s?.sb.stop();
  });

  it("exports nothing and sends no trace context upstream, while a host's own trace id is still recorded on its call", async () => {
    const { body } = await s.api("POST", `/api/v1/servers/${s.id}/tools/call`, { name: "echo", arguments: { message: "untraced" } });
    expect(body.call.status).toBe("ok");
    expect(body.call.traceId).toMatch(/^[0-9a-f]{32}$/);
    const sent = s.written().find((m) => m.method === "tools/call" && m.params?.arguments?.message === "untraced")!;
    expect(sent.params?._meta?.traceparent).toBeUndefined();

    const host = await gatewayHost(s.url, s.token, { name: "untraced-host" });
    try {
      const traced = hostTraceparent();
      await host.callTool({ name: "echo", arguments: { message: "host trace" }, _meta: { traceparent: traced.traceparent } });
      let call: any;
      await waitFor(async () => (call = (await s.api("GET", "/api/v1/calls?origin=gateway")).body.items.find((c: any) => c.name === "echo" && c.status === "ok")));
      expect((await s.api("GET", `/api/v1/calls/${call.id}`)).body.call.traceId).toBe(traced.traceId);
    } finally {
      await host.close();
    }
  });
});
