import {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
  UnsupportedProtocolVersionError,
} from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { explainError, McpError } from "@/lib/mcp/server";
import { AddressRefusedError } from "@/lib/core/net";

type SseEvent = ConstructorParameters<typeof SseError>[2];
const sseEvent = { type: "error" } as unknown as SseEvent;

function netError(message: string, fields: Record<string, unknown>): Error {
  return Object.assign(new Error(message), fields);
}

function fetchFailed(cause: unknown): TypeError {
  return new TypeError("fetch failed", { cause });
}

describe("explainError", () => {
  it("passes an McpError through unchanged", () => {
    const err = new McpError("timeout", "already explained");
    expect(explainError(err)).toBe(err);
  });

  it("turns a JSON-RPC error into a protocol error with code, data and the code's name", () => {
    const err = explainError(new ProtocolError(-32602, "Unknown tool: nope", { tool: "nope" }));
    expect(err).toBeInstanceOf(McpError);
    expect(err).toMatchObject({ kind: "protocol", code: -32602, data: { tool: "nope" } });
    expect(err.message).toBe("Server returned error -32602 (Invalid params): Unknown tool: nope");
  });

  it("names the versions of an unsupported protocol version", () => {
    const err = explainError(new UnsupportedProtocolVersionError({ supported: ["2025-11-25"], requested: "2026-07-28" }));
    expect(err.kind).toBe("protocol_version");
    expect(err.message).toContain("2026-07-28");
    expect(err.message).toContain("2025-11-25");
  });

  it("summarises an HTML error page and keeps the raw excerpt", () => {
    const body = '<!DOCTYPE html><html><head><title>Error</title></head><body><pre>Cannot POST /sse</pre></body></html>';
    const err = explainError(
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${body}`, {
        status: 404,
        statusText: "Not Found",
        text: body,
      }),
    );
    expect(err).toMatchObject({ kind: "http", status: 404, bodyExcerpt: body });
    expect(err.message).toBe("HTTP 404 Not Found (server said: Cannot POST /sse)");
  });

  it("shows WWW-Authenticate for a 401 from the recorded response", () => {
    const err = explainError(
      new SdkHttpError(SdkErrorCode.ClientHttpAuthentication, "Version negotiation failed", { status: 401, text: "" }),
      {
        http: {
          method: "POST",
          status: 401,
          statusText: "Unauthorized",
          wwwAuthenticate: 'Bearer realm="example"',
          contentType: "text/plain",
          bodyExcerpt: "",
        },
      },
    );
    expect(err).toMatchObject({ kind: "unauthorized", status: 401, wwwAuthenticate: 'Bearer realm="example"' });
    expect(err.message).toBe('HTTP 401 Unauthorized — WWW-Authenticate: Bearer realm="example"');
  });

  it("ignores a recorded response with a different status", () => {
    const recorded = { method: "GET", status: 500, statusText: "", wwwAuthenticate: "Basic", contentType: null, bodyExcerpt: "x" };
    const err = explainError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "x", { status: 403 }), { http: recorded });
    expect(err.kind).toBe("unauthorized");
    expect(err.wwwAuthenticate).toBeUndefined();
    expect(err.message).toBe("HTTP 403 Forbidden");
  });

  it("reports timeouts with their duration", () => {
    const err = explainError(new SdkError(SdkErrorCode.RequestTimeout, "Request timed out", { timeout: 5000 }));
    expect(err).toMatchObject({ kind: "timeout", message: "Request timed out after 5000 ms" });
    expect(explainError(new SdkError(SdkErrorCode.RequestTimeout, "x"), { timeoutMs: 250 }).message).toBe(
      "Request timed out after 250 ms",
    );
  });

  it("recognises a cancellation the SDK reports as a timeout", () => {
    const err = explainError(new SdkError(SdkErrorCode.RequestTimeout, "AbortError: This operation was aborted"));
    expect(err.kind).toBe("cancelled");
    expect(explainError(new DOMException("The operation was aborted.", "AbortError")).kind).toBe("cancelled");
  });

  it("names a wrong content type", () => {
    const err = explainError(
      new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, "Unexpected content type: text/html", { contentType: "text/html" }),
    );
    expect(err).toMatchObject({
      kind: "content_type",
      message: "Server answered with content type text/html, expected application/json or text/event-stream",
    });
  });

  it("digs a refused connection out of a failed version negotiation", () => {
    const refused = netError("connect ECONNREFUSED 127.0.0.1:4999", { code: "ECONNREFUSED", address: "127.0.0.1", port: 4999 });
    const probe = fetchFailed(refused);
    const err = explainError(new SdkError(SdkErrorCode.EraNegotiationFailed, "Version negotiation probe failed: fetch failed", { cause: probe }, { cause: probe }));
    expect(err).toMatchObject({ kind: "refused", message: "Connection refused by 127.0.0.1:4999 (is the server running?)" });
  });

  it("handles Node's AggregateError for dual-stack connection attempts", () => {
    const v6 = netError("connect ECONNREFUSED ::1:4999", { code: "ECONNREFUSED", address: "::1", port: 4999 });
    const v4 = netError("connect ECONNREFUSED 127.0.0.1:4999", { code: "ECONNREFUSED", address: "127.0.0.1", port: 4999 });
    const err = explainError(fetchFailed(new AggregateError([v6, v4])));
    expect(err.kind).toBe("refused");
    expect(err.message).toContain("::1:4999");
  });

  it("explains DNS, TLS and reset failures", () => {
    const dns = explainError(fetchFailed(netError("getaddrinfo ENOTFOUND nonexistent.invalid", { code: "ENOTFOUND", hostname: "nonexistent.invalid" })));
    expect(dns).toMatchObject({ kind: "dns", message: "Could not resolve host name nonexistent.invalid (ENOTFOUND)" });

    const tls = explainError(fetchFailed(netError("self-signed certificate", { code: "DEPTH_ZERO_SELF_SIGNED_CERT" })), {
      url: "https://mcp.example.com/mcp",
    });
    expect(tls.kind).toBe("tls");
    expect(tls.message).toBe("TLS connection to mcp.example.com failed: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)");

    const reset = explainError(fetchFailed(netError("read ECONNRESET", { code: "ECONNRESET" })));
    expect(reset.kind).toBe("closed");
  });

  it("falls back to the fetch failure's own reason", () => {
    const err = explainError(fetchFailed(new Error("bad port")), { url: "http://127.0.0.1:1/mcp" });
    expect(err).toMatchObject({ kind: "unknown", message: "Network request to 127.0.0.1 failed: bad port" });
  });

  it("explains legacy SSE transport errors", () => {
    expect(explainError(new SseError(404, "Non-200 status code (404)", sseEvent))).toMatchObject({ kind: "http", status: 404 });
    expect(explainError(new SseError(401, "Non-200 status code (401)", sseEvent)).kind).toBe("unauthorized");
    expect(explainError(new SseError(200, 'Invalid content type, expected "text/event-stream"', sseEvent)).kind).toBe("content_type");
    const refused = explainError(new SseError(undefined, "TypeError: fetch failed: connect ECONNREFUSED 127.0.0.1:4999", sseEvent));
    expect(refused).toMatchObject({ kind: "refused", message: "Connection refused by 127.0.0.1:4999 (is the server running?)" });
    const posted = explainError(new Error("Error POSTing to endpoint (HTTP 503): busy"));
    expect(posted).toMatchObject({ kind: "http", status: 503, message: "HTTP 503 Service Unavailable (server said: busy)" });
  });

  it("quotes nothing a server inside a network answered, and names the rule of a refused address", () => {
    const posted = explainError(new Error("Error POSTing to endpoint (HTTP 503): internal detail"), { internal: true });
    expect(posted).toMatchObject({ kind: "http", status: 503, message: "HTTP 503 Service Unavailable" });
    expect(posted.bodyExcerpt).toBeUndefined();
    const recorded = { method: "POST", status: 500, statusText: "", wwwAuthenticate: null, contentType: "text/plain", bodyExcerpt: "internal detail" };
    expect(explainError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "x", { status: 500, statusText: "" }), { http: recorded, internal: true }).message).not.toContain("internal detail");
    let syntax: unknown;
    try {
      JSON.parse("<html>internal detail");
    } catch (err) {
      syntax = err;
    }
    expect(explainError(syntax, { internal: true }).message).toBe("Server sent malformed JSON");
    const refusal = new AddressRefusedError("localhost", "loopback", "Blocked by the outbound network policy: localhost resolves to a loopback address");
    const blocked = explainError(new TypeError("fetch failed", { cause: refusal }));
    expect(blocked).toMatchObject({ kind: "blocked", message: refusal.message, data: { rule: "loopback" } });
  });

  it("reports malformed and invalid messages as protocol errors", () => {
    let syntax: unknown;
    try {
      JSON.parse("{oops");
    } catch (err) {
      syntax = err;
    }
    expect(explainError(syntax)).toMatchObject({ kind: "protocol", code: -32700 });
    const zodLike = Object.assign(new Error("invalid"), { name: "ZodError", issues: [{ message: "Required", path: ["id"] }] });
    const err = explainError(zodLike);
    expect(err).toMatchObject({ kind: "protocol", code: -32600 });
    expect(err.message).toContain("Required at id");
  });

  it("keeps anything else as unknown with its message and cause", () => {
    const cause = new Error("weird");
    const err = explainError(cause);
    expect(err).toMatchObject({ kind: "unknown", message: "weird" });
    expect(err.cause).toBe(cause);
    expect(explainError("boom").message).toBe("boom");
  });
});
