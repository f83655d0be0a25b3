import { SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { McpError } from "@/lib/mcp/server";
import { fallsBackToSse } from "@/lib/mcp/upstream";

// The one Streamable HTTP → HTTP+SSE rule, read by the console's sessions (lib/mcp/connect.ts, explained
// McpErrors) and by the gateway's relayed sessions (lib/gateway/connect.ts, the SDK's raw HTTP errors).

const http = (status: number) => new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `HTTP ${status}`, { status });

describe("fallsBackToSse", () => {
  it.each([400, 404, 405])("falls back in auto mode on HTTP %i, explained or raw", (status) => {
    expect(fallsBackToSse("auto", new McpError("http", "refused", { status }))).toBe(true);
    expect(fallsBackToSse("auto", http(status))).toBe(true);
  });

  it.each([401, 403, 406, 415, 500, 502])("does not on HTTP %i", (status) => {
    expect(fallsBackToSse("auto", new McpError("http", "refused", { status }))).toBe(false);
    expect(fallsBackToSse("auto", http(status))).toBe(false);
  });

  it("does not when a transport is chosen, nor for failures that are not HTTP answers", () => {
    for (const mode of ["streamable-http", "sse"] as const) {
      expect(fallsBackToSse(mode, new McpError("http", "x", { status: 404 }))).toBe(false);
      expect(fallsBackToSse(mode, http(405))).toBe(false);
    }
    expect(fallsBackToSse("auto", new McpError("unauthorized", "x", { status: 404 }))).toBe(false);
    expect(fallsBackToSse("auto", new McpError("refused", "connect ECONNREFUSED"))).toBe(false);
    expect(fallsBackToSse("auto", new Error("404"))).toBe(false);
  });
});
