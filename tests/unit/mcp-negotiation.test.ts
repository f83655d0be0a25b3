import { SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { McpError } from "@/lib/mcp/errors";
import { bothFailed, planAttempt, probeBudgetMs, probeFailure, slowStart, slowStartFailed, withProbeContext } from "@/lib/mcp/negotiation";

const http = (status: number, code = SdkErrorCode.EraNegotiationFailed, statusText?: string) =>
  new SdkHttpError(code, `Version negotiation failed: HTTP ${status}`, { status, ...(statusText ? { statusText } : {}) });
const unusable = (cause: unknown) =>
  new SdkError(SdkErrorCode.EraNegotiationFailed, "Version negotiation probe failed: the server answered with an unusable reply", { cause }, { cause });

describe("planAttempt (which handshake a server's protocolEra asks for)", () => {
  const config = { timeoutMs: 60_000 };

  it("auto probes within a budget and may fall back; a remembered era skips the probe", () => {
    expect(planAttempt(config)).toEqual({ negotiation: { mode: "auto", probe: { timeoutMs: 5000 } }, label: "probe", mayFallBack: true });
    expect(planAttempt({ ...config, eraHint: "legacy" })).toMatchObject({ prior: { kind: "legacy" }, label: "remembered", mayFallBack: false });
    // A modern verdict without its discover result cannot skip the probe.
    expect(planAttempt({ ...config, eraHint: "modern" })).toMatchObject({ label: "probe", mayFallBack: true });
    expect(planAttempt({ ...config, eraHint: "modern", discoverResult: { supportedVersions: ["2026-07-28"] } }).prior).toMatchObject({ kind: "modern" });
  });

  it("legacy never probes; modern pins the modern revision and never falls back; both ignore the remembered era", () => {
    expect(planAttempt({ ...config, protocolEra: "legacy", eraHint: "modern", discoverResult: {} })).toEqual({
      negotiation: { mode: "legacy" },
      prior: { kind: "legacy" },
      label: "initialize",
      mayFallBack: false,
    });
    expect(planAttempt({ ...config, protocolEra: "modern", eraHint: "legacy" })).toEqual({
      negotiation: { mode: { pin: "2026-07-28" } },
      label: "probe",
      mayFallBack: false,
    });
  });

  it("gives the probe a third of the connect timeout, at most 5 s", () => {
    expect(probeBudgetMs(60_000)).toBe(5000);
    expect(probeBudgetMs(6000)).toBe(2000);
    expect(probeBudgetMs(1000)).toBe(333);
  });

  it("gives a stdio process two thirds: it reads nothing until it has started, and a probe timeout is not a failure there", () => {
    expect(probeBudgetMs(60_000, true)).toBe(40_000);
    expect(planAttempt({ ...config, createTransport: () => ({}) as never })).toMatchObject({ negotiation: { probe: { timeoutMs: 40_000 } } });
    expect(planAttempt({ ...config, createTransport: () => ({}) as never, transportKind: "memory" })).toMatchObject({ negotiation: { probe: { timeoutMs: 5000 } } });
  });
});

describe("slowStart (a stdio probe given up on while the process was starting)", () => {
  const refused = new McpError("protocol_version", "Server does not support protocol version 2025-11-25 (it supports 2026-07-28)", {
    code: -32022,
    data: { supported: ["2026-07-28"], requested: "2025-11-25" },
  });

  it("reads an unanswered probe, then initialize refused by a modern server, as a slow start naming the time", () => {
    expect(slowStart(refused, 6000)).toBe("server/discover got no answer within 6 s (the server was probably still starting)");
    expect(slowStart(refused, null)).toBeNull();
    expect(slowStart(new McpError("protocol", "Server returned error -32601"), 6000)).toBeNull();
    const failed = slowStartFailed("server/discover got no answer within 6 s", new McpError("timeout", "Connecting timed out after 9000 ms"));
    expect(failed.kind).toBe("timeout");
    expect(failed.message).toBe("server/discover got no answer within 6 s; a fresh process then failed: Connecting timed out after 9000 ms");
  });
});

describe("probeFailure (a failed probe that initialize may survive)", () => {
  it("falls back on an HTTP error status, naming it", () => {
    expect(probeFailure(http(500))).toBe("server/discover answered HTTP 500 Internal Server Error");
    expect(probeFailure(http(502, SdkErrorCode.EraNegotiationFailed, "Bad Gateway"))).toBe("server/discover answered HTTP 502 Bad Gateway");
  });

  it("falls back on an answer that is not JSON-RPC and on silence", () => {
    const html = new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, "Unexpected content type: text/html", { contentType: "text/html" });
    expect(probeFailure(unusable(html))).toBe("server/discover answered with something other than JSON-RPC (content type text/html)");
    expect(probeFailure(unusable(new McpError("protocol", "Server sent malformed JSON")))).toMatch(/other than JSON-RPC \(Server sent malformed JSON\)/);
    const silence = new SdkError(SdkErrorCode.RequestTimeout, "Version negotiation probe timed out after 2000ms", { timeout: 2000 });
    expect(probeFailure(silence)).toBe("server/discover went unanswered for 2000 ms");
  });

  it("does not fall back on credentials, an outage or an ordinary request timeout", () => {
    expect(probeFailure(http(401, SdkErrorCode.ClientHttpAuthentication))).toBeNull();
    expect(probeFailure(http(403, SdkErrorCode.ClientHttpForbidden))).toBeNull();
    const outage = new SdkError(SdkErrorCode.EraNegotiationFailed, "Version negotiation probe failed: fetch failed", { cause: new TypeError("fetch failed") }, { cause: new TypeError("fetch failed") });
    expect(probeFailure(outage)).toBeNull();
    expect(probeFailure(new SdkError(SdkErrorCode.RequestTimeout, "Request timed out", { timeout: 100 }))).toBeNull();
    expect(probeFailure(new Error("anything else"))).toBeNull();
  });
});

describe("the errors of a failed probe", () => {
  it("a modern-only failure says it was the probe's, keeping its kind and status", () => {
    expect(withProbeContext(new McpError("http", "HTTP 500 Internal Server Error", { status: 500 }))).toMatchObject({
      kind: "http",
      status: 500,
      message: "server/discover failed: HTTP 500 Internal Server Error",
    });
  });

  it("names both attempts and keeps initialize's kind, unless initialize only ran out of time", () => {
    const probe = new McpError("http", "HTTP 500 Internal Server Error", { status: 500 });
    const refused = bothFailed("server/discover answered HTTP 500 Internal Server Error", probe, new McpError("http", "HTTP 503 Service Unavailable", { status: 503 }));
    expect(refused.message).toBe("server/discover answered HTTP 500 Internal Server Error; initialize then failed: HTTP 503 Service Unavailable");
    expect(refused).toMatchObject({ kind: "http", status: 503 });
    const late = bothFailed("server/discover answered HTTP 500 Internal Server Error", probe, new McpError("timeout", "Connecting timed out after 1000 ms"));
    expect(late).toMatchObject({ kind: "http", status: 500, message: "server/discover answered HTTP 500 Internal Server Error; initialize then failed: Connecting timed out after 1000 ms" });
  });
});
