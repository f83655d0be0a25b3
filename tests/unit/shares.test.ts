import { describe, expect, it } from "vitest";
import { safeNextPath } from "@/lib/identity/auth";
import { DEFAULT_REDACTION_KEYS, REDACTED, redactionKeys, secretValues } from "@/lib/core/redaction";
import { publicUrl, toSharedCall, type ShareSource } from "@/lib/domains/shares/shared-call";

const keys = [...DEFAULT_REDACTION_KEYS];

function source(over: Partial<ShareSource> = {}): ShareSource {
  return {
    method: "tools/call",
    name: "login",
    status: "ok",
    isError: false,
    origin: "user",
    params: JSON.stringify({ name: "login", arguments: { user: "ada", password: "hunter2", nested: { api_key: "k-123" } } }),
    result: JSON.stringify({
      content: [
        { type: "text", text: JSON.stringify({ session: "s", access_token: "at-999" }, null, 2) },
        { type: "text", text: "plain words with token=visible-in-prose" },
      ],
      structuredContent: { refreshToken: "rt-1", count: 2 },
    }),
    error: null,
    startedAt: new Date("2026-01-01T00:00:00Z"),
    finishedAt: new Date("2026-01-01T00:00:01Z"),
    durationMs: 1000,
    requestSize: 10,
    resultSize: 20,
    server: { name: "auth", url: "https://user:pass@mcp.example.com/v1/mcp?key=abc#frag", kind: "http" },
    ...over,
  };
}

describe("the public view of a shared call", () => {
  it("masks arguments, structured content and JSON inside text content by field name, and lists the paths", () => {
    const { call, masked } = toSharedCall(source(), keys);
    const params = call.params as { arguments: { user: string; password: string; nested: { api_key: string } } };
    expect(params.arguments.user).toBe("ada");
    expect(params.arguments.password).toBe(REDACTED);
    expect(params.arguments.nested.api_key).toBe(REDACTED);
    const result = call.result as { content: { text: string }[]; structuredContent: Record<string, unknown> };
    expect(JSON.parse(result.content[0]!.text)).toEqual({ session: "s", access_token: REDACTED });
    expect(result.content[0]!.text).toContain("\n");
    expect(result.content[1]!.text).toBe("plain words with token=visible-in-prose");
    expect(result.structuredContent).toEqual({ refreshToken: REDACTED, count: 2 });
    expect(masked).toEqual([
      "params.arguments.password",
      "params.arguments.nested.api_key",
      "result.content[0].text(json).access_token",
      "result.structuredContent.refreshToken",
    ]);
    const all = JSON.stringify(call);
    for (const secret of ["hunter2", "k-123", "at-999", "rt-1", "pass@", "key=abc"]) expect(all).not.toContain(secret);
  });

  it("leaves out ids, people and the workspace, and shows the server URL as origin and path", () => {
    const { call } = toSharedCall(source(), keys);
    expect(call.server).toEqual({ name: "auth", url: "https://mcp.example.com/v1/mcp", kind: "http" });
    expect(Object.keys(call).sort()).toEqual(
      ["durationMs", "error", "finishedAt", "isError", "method", "name", "origin", "params", "requestSize", "result", "resultSize", "server", "startedAt", "status"].sort(),
    );
    expect(publicUrl(null)).toBeNull();
    expect(publicUrl("not a url")).toBeNull();
  });

  it("masks error data and strips credentials from error messages", () => {
    const error = { kind: "connection", message: "fetch https://user:pass@mcp.example.com/v1/mcp?key=abc#frag failed", data: { secret: "s3" } };
    const { call, masked } = toSharedCall(source({ status: "error", result: null, error: JSON.stringify(error) }), keys);
    expect(call.error?.message).toBe("fetch https://mcp.example.com/v1/mcp failed");
    expect(call.error?.data).toEqual({ secret: REDACTED });
    expect(masked).toContain("error.data.secret");
  });

  it("uses the workspace's own list on top of the default one", () => {
    const { call, masked } = toSharedCall(source({ params: JSON.stringify({ arguments: { ssn: "1", password: "p" } }), result: null }), redactionKeys('["ssn"]'));
    expect(call.params).toEqual({ arguments: { ssn: REDACTED, password: REDACTED } });
    expect(masked).toEqual(["params.arguments.ssn", "params.arguments.password"]);
  });

  it("masks the server's stored secret values wherever they appear", () => {
    const secrets = secretValues(["s3cr3t-value-123"]);
    const params = JSON.stringify({ arguments: { message: "key s3cr3t-value-123", blob: '{"note":"s3cr3t-value-123"}' } });
    const result = JSON.stringify({ content: [{ type: "text", text: "Echo: key s3cr3t-value-123" }] });
    const { call, masked } = toSharedCall(source({ params, result }), keys, secrets);
    expect(JSON.stringify(call)).not.toContain("s3cr3t-value-123");
    expect(masked).toEqual(["params.arguments.message", "params.arguments.blob(json).note", "result.content[0].text"]);
  });
});

describe("safeNextPath", () => {
  it("accepts same-origin paths only", () => {
    expect(safeNextPath("/calls/abc?x=1")).toBe("/calls/abc?x=1");
    for (const bad of [null, "", "calls", "//evil.example", "/\\evil.example", "/\t/evil.example", "https://evil.example/", "/a\\b"]) {
      expect(safeNextPath(bad)).toBeNull();
    }
  });
});

describe("share links in the role matrix", () => {
  it("maps /s/:token (rewritten for JSON by next.config.js) to the public share route", async () => {
    const { accessFor } = await import("@/lib/core/access");
    expect(accessFor("GET", "/s/sbs_abc")).toEqual({ key: "GET /api/v1/public/shares/:token", access: "public" });
    expect(accessFor("POST", "/s/sbs_abc")).toBeUndefined();
    expect(accessFor("GET", "/s/a/b")).toBeUndefined();
  });
});
