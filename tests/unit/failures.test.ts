import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { SwitchboardError } from "@/lib/core/errors";
import { classifyFailure, HostTimeout, McpError, toApiError, toCallError, toJsonRpcError, type Failure } from "@/lib/mcp/server";
import { AddressRefusedError } from "@/lib/core/net";
import { AgentOfflineError, RELAY_ERROR_CODE } from "@/lib/relay/server";

const signIn = { oauth: "sign_in_required" as const, serverId: "s1", authorizeUrl: "/api/v1/servers/s1/oauth/authorize" };
const invalid = new SwitchboardError("unprocessable", "Arguments do not match");

interface Row {
  failure: Failure;
  api: { code: string; status: number; message: string; details?: unknown };
  call: { status: string; error: Record<string, unknown> };
  rpc: { code: number; message: string; data?: unknown };
}

const m = "what happened";
const reached = `"files" could not be reached: ${m}`;
const plain = (kind: string, call: Row["call"], rpc: string): Omit<Row, "failure"> => ({
  api: { code: "upstream_error", status: 502, message: m, details: { kind } },
  call,
  rpc: { code: -32603, message: rpc, data: { kind } },
});
const connection = { status: "error", error: { kind: "connection", message: m } };

/** Every kind × every renderer, rendered for a server named "files". */
const TABLE: Record<Failure["kind"], Row> = {
  protocol: {
    failure: { kind: "protocol", message: m, code: -32602, data: { tool: "x" } },
    api: { code: "upstream_error", status: 502, message: m, details: { kind: "protocol", code: -32602 } },
    call: { status: "error", error: { kind: "protocol", message: m, code: -32602, data: { tool: "x" } } },
    rpc: { code: -32602, message: m, data: { tool: "x" } },
  },
  too_large: {
    failure: { kind: "too_large", message: m, code: RELAY_ERROR_CODE, data: { relay: "too_large" } },
    api: { code: "upstream_error", status: 502, message: m, details: { kind: "too_large", code: RELAY_ERROR_CODE } },
    call: { status: "error", error: { kind: "protocol", message: m, code: RELAY_ERROR_CODE, data: { relay: "too_large" } } },
    rpc: { code: RELAY_ERROR_CODE, message: m, data: { relay: "too_large" } },
  },
  http: {
    failure: { kind: "http", message: m, status: 500 },
    api: { code: "upstream_error", status: 502, message: m, details: { kind: "http", status: 500 } },
    call: connection,
    rpc: { code: -32603, message: reached, data: { kind: "http" } },
  },
  unauthorized: {
    failure: { kind: "unauthorized", message: m, status: 401 },
    api: { code: "upstream_error", status: 502, message: m, details: { kind: "unauthorized", status: 401 } },
    call: connection,
    rpc: { code: -32603, message: reached, data: { kind: "unauthorized" } },
  },
  sign_in: {
    failure: { kind: "sign_in", message: m, oauth: signIn },
    api: { code: "upstream_error", status: 502, message: m, details: signIn },
    call: { status: "error", error: { kind: "connection", message: m, oauth: signIn } },
    rpc: { code: -32603, message: m, data: { kind: "sign_in" } },
  },
  blocked: {
    failure: { kind: "blocked", message: m },
    api: { code: "forbidden", status: 403, message: m, details: { kind: "blocked" } },
    call: connection,
    rpc: { code: -32603, message: reached, data: { kind: "blocked" } },
  },
  dns: { failure: { kind: "dns", message: m }, ...plain("dns", connection, reached) },
  refused: { failure: { kind: "refused", message: m }, ...plain("refused", connection, reached) },
  tls: { failure: { kind: "tls", message: m }, ...plain("tls", connection, reached) },
  closed: { failure: { kind: "closed", message: m }, ...plain("closed", connection, reached) },
  unknown: { failure: { kind: "unknown", message: m }, ...plain("unknown", connection, reached) },
  content_type: { failure: { kind: "content_type", message: m }, ...plain("content_type", connection, reached) },
  protocol_version: { failure: { kind: "protocol_version", message: m }, ...plain("protocol_version", connection, reached) },
  offline: { failure: { kind: "offline", message: m }, ...plain("offline", { status: "error", error: { kind: "offline", message: m } }, reached) },
  timeout: { failure: { kind: "timeout", message: m }, ...plain("timeout", { status: "timeout", error: { kind: "timeout", message: m } }, `"files": ${m}`) },
  host_timeout: { failure: { kind: "host_timeout", message: m }, ...plain("host_timeout", { status: "timeout", error: { kind: "timeout", message: m } }, `"files": ${m}`) },
  cancelled: { failure: { kind: "cancelled", message: m }, ...plain("cancelled", { status: "cancelled", error: { kind: "cancelled", message: m } }, `"files": ${m}`) },
  console: {
    failure: { kind: "console", error: invalid },
    api: { code: "unprocessable", status: 422, message: "Arguments do not match" },
    call: { status: "error", error: { kind: "connection", message: "Arguments do not match" } },
    rpc: { code: -32603, message: '"files": Arguments do not match', data: { kind: "unprocessable" } },
  },
};

describe("failures: every kind × every renderer", () => {
  for (const [kind, row] of Object.entries(TABLE)) {
    it(`${kind}: API error`, () => {
      const err = toApiError(row.failure);
      expect(err).toBeInstanceOf(SwitchboardError);
      expect({ code: err.code, status: err.status, message: err.message, ...(err.details === undefined ? {} : { details: err.details }) }).toEqual(row.api);
    });
    it(`${kind}: recorded call error`, () => {
      expect(toCallError(row.failure)).toEqual(row.call);
    });
    it(`${kind}: JSON-RPC error for a host`, () => {
      expect(toJsonRpcError(row.failure, "files")).toEqual(row.rpc);
    });
    it(`${kind}: its API error reads back as the same failure`, () => {
      const back = classifyFailure(toApiError(row.failure));
      // The API error carries no JSON-RPC data: the rest survives.
      expect(back).toEqual("data" in row.failure ? { ...row.failure, data: undefined } : row.failure);
    });
  }

  it("names no server when it is not known", () => {
    expect(toJsonRpcError({ kind: "refused", message: m })).toEqual({ code: -32603, message: `The server could not be reached: ${m}`, data: { kind: "refused" } });
    expect(toJsonRpcError({ kind: "timeout", message: m })).toEqual({ code: -32603, message: m, data: { kind: "timeout" } });
    expect(toJsonRpcError({ kind: "protocol", message: m })).toEqual({ code: -32603, message: m, data: { kind: "protocol" } });
  });
});

function netError(message: string, fields: Record<string, unknown>): Error {
  return Object.assign(new Error(message), fields);
}

describe("classifyFailure: what the code throws", () => {
  const cases: [string, unknown, Partial<Failure> & { kind: Failure["kind"] }][] = [
    ["a server's JSON-RPC error (SDK ProtocolError)", new ProtocolError(-32602, "Unknown tool: nope", { tool: "nope" }), { kind: "protocol", code: -32602, data: { tool: "nope" }, message: "Server returned error -32602 (Invalid params): Unknown tool: nope" }],
    ["an McpError from lib/mcp", new McpError("protocol", "explained", { code: -32601 }), { kind: "protocol", code: -32601, message: "explained" }],
    ["the relay's cap", new ProtocolError(RELAY_ERROR_CODE, "too big", { relay: "too_large" }), { kind: "too_large", code: RELAY_ERROR_CODE, data: { relay: "too_large" } }],
    ["the relay's answer for an agent offline", new ProtocolError(RELAY_ERROR_CODE, "agent offline: gone", { relay: "offline" }), { kind: "offline", message: "agent offline: gone" }],
    ["the relay's answer for a link gone", new ProtocolError(RELAY_ERROR_CODE, "link closed", { relay: "connection" }), { kind: "closed", message: "link closed" }],
    ["AgentOfflineError", new AgentOfflineError("the agent is not connected"), { kind: "offline", message: "agent offline: the agent is not connected" }],
    ["an SDK request timeout", new SdkError(SdkErrorCode.RequestTimeout, "Request timed out", { timeout: 50 }), { kind: "timeout", message: "Request timed out after 50 ms" }],
    ["a TimeoutError", Object.assign(new Error("late"), { name: "TimeoutError" }), { kind: "timeout" }],
    ["an AbortError", Object.assign(new Error("aborted"), { name: "AbortError" }), { kind: "cancelled", message: "Request cancelled" }],
    ["the connection closed", new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed"), { kind: "closed" }],
    ["a refused connection", netError("connect ECONNREFUSED 127.0.0.1:4999", { code: "ECONNREFUSED", address: "127.0.0.1", port: 4999 }), { kind: "refused", message: "Connection refused by 127.0.0.1:4999 (is the server running?)" }],
    ["a name that does not resolve", netError("getaddrinfo ENOTFOUND nope.invalid", { code: "ENOTFOUND", hostname: "nope.invalid" }), { kind: "dns" }],
    ["an HTTP 500", new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "boom", { status: 500, statusText: "Internal Server Error" }), { kind: "http", status: 500 }],
    ["an HTTP 401", new SdkHttpError(SdkErrorCode.ClientHttpAuthentication, "no", { status: 401, statusText: "Unauthorized" }), { kind: "unauthorized", status: 401 }],
    ["an address the network policy refuses", new AddressRefusedError("10.0.0.1", "private", "10.0.0.1 is a private address, which the network policy refuses"), { kind: "blocked" }],
    ["a host that did not come back (HostTimeout)", new HostTimeout("The host did not answer within 2500 ms"), { kind: "host_timeout", message: "The host did not answer within 2500 ms" }],
    ["the console's own error (SwitchboardError)", invalid, { kind: "console" }],
    ["a sign-in the server needs", new SwitchboardError("upstream_error", "sign in first", signIn), { kind: "sign_in", oauth: signIn }],
    ["a bug", new TypeError("x is not a function"), { kind: "unknown", message: "x is not a function" }],
    ["a thrown string", "nope", { kind: "unknown", message: "nope" }],
  ];
  for (const [what, err, expected] of cases) {
    it(`reads ${what} as ${expected.kind}`, () => {
      expect(classifyFailure(err)).toMatchObject(expected);
    });
  }
});
