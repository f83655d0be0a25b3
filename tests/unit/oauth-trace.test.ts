import { describe, expect, it } from "vitest";
import { diagnoseAuthError, NO_CLIENT_IDENTITY } from "@/lib/mcp/oauth-diagnose";
import { callbackSteps } from "@/lib/mcp/oauth-steps";
import { createOAuthRecorder, explainAuthorizationUrl, redactUrl } from "@/lib/mcp/oauth-trace";
import { OAuthError } from "@modelcontextprotocol/client";

const JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl";

/** A fetch that answers from a table, so the recorder can be tested without a network. */
function answering(body: string, contentType: string, status = 200): typeof fetch {
  return async () => new Response(body, { status, headers: { "content-type": contentType, "set-cookie": "sid=secret-cookie" } });
}

describe("the OAuth recording fetch", () => {
  it("masks secrets in token requests and answers but keeps what an OAuth trace is for", async () => {
    const recorder = createOAuthRecorder({
      base: answering(JSON.stringify({ access_token: JWT, refresh_token: "opaque-refresh", id_token: JWT, token_type: "Bearer", expires_in: 60 }), "application/json"),
    });
    const body = new URLSearchParams({ grant_type: "authorization_code", code: "the-code", code_verifier: "the-verifier", client_id: "c1", client_secret: "s3cret", redirect_uri: "http://127.0.0.1/cb" });
    await recorder.fetch("http://127.0.0.1:1/token", { method: "POST", headers: { authorization: "Basic abc", dpop: JWT, "x-tenant": "configured-value", accept: "application/json" }, body });
    const [{ kind, exchange }] = recorder.exchanges as [(typeof recorder.exchanges)[number]];
    expect(kind).toBe("token");
    expect(exchange.requestBody).toEqual({
      kind: "form",
      value: { grant_type: "authorization_code", code: "[redacted]", code_verifier: "[redacted]", client_id: "c1", client_secret: "[redacted]", redirect_uri: "http://127.0.0.1/cb" },
    });
    // A server's configured headers ride along on a live connection's requests: only known-harmless ones are shown.
    expect(exchange.requestHeaders).toMatchObject({ authorization: "[redacted]", dpop: "[redacted]", "x-tenant": "[redacted]", accept: "application/json" });
    expect(exchange.responseHeaders["set-cookie"]).toBe("[redacted]");
    expect(exchange.responseBody).toEqual({ kind: "json", value: { access_token: "[redacted]", refresh_token: "[redacted]", id_token: "[redacted]", token_type: "Bearer", expires_in: 60 } });
    expect(JSON.stringify(exchange)).not.toMatch(/the-code|the-verifier|s3cret|opaque-refresh|configured-value|eyJ/);
  });

  it("does not mask metadata fields whose names merely contain a secret word", async () => {
    const metadata = { issuer: "http://as", token_endpoint: "http://as/token", code_challenge_methods_supported: ["S256"], token_endpoint_auth_methods_supported: ["none"] };
    const recorder = createOAuthRecorder({ base: answering(JSON.stringify(metadata), "application/json") });
    await recorder.fetch("http://as/.well-known/oauth-authorization-server");
    expect(recorder.exchanges[0]).toMatchObject({ kind: "as-metadata", exchange: { responseBody: { kind: "json", value: metadata } } });
  });

  it("passes other traffic through unrecorded, and masks secrets in text bodies and URLs", async () => {
    const recorder = createOAuthRecorder({ base: answering(`error: bad code=abc123&state=xyz token ${JWT}`, "text/plain", 400) });
    await recorder.fetch("http://127.0.0.1:1/mcp", { method: "POST", body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(recorder.exchanges).toHaveLength(0);
    await recorder.fetch("http://127.0.0.1:1/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=refresh_token&refresh_token=r1" });
    expect(recorder.exchanges[0]!.kind).toBe("refresh");
    expect(recorder.exchanges[0]!.exchange.responseBody).toEqual({ kind: "text", value: "error: bad code=[redacted]&state=[redacted] token [redacted]", truncated: false });
    // A JSON-RPC body that happens to contain form-like text is not mistaken for a token request.
    await recorder.fetch("http://127.0.0.1:1/mcp", { method: "POST", headers: { "content-type": "application/json" }, body: '{"params":{"x":"&grant_type=refresh_token&"}}' });
    expect(recorder.exchanges).toHaveLength(1);
    expect(redactUrl("http://127.0.0.1/cb?code=abc&state=xyz&iss=http%3A%2F%2Fas")).toBe("http://127.0.0.1/cb?code=%5Bredacted%5D&state=%5Bredacted%5D&iss=http%3A%2F%2Fas");
  });

  it("explains the authorization URL's parameters", () => {
    const params = explainAuthorizationUrl("http://as/auth?response_type=code&client_id=c1&code_challenge=abc&code_challenge_method=S256&state=s&resource=http%3A%2F%2Fmcp");
    expect(params.find((p) => p.name === "state")?.value).toBe("[redacted]");
    expect(params.find((p) => p.name === "resource")).toMatchObject({ value: "http://mcp", note: expect.stringContaining("RFC 8707") });
  });
});

describe("OAuth diagnoses", () => {
  it("puts SDK errors on their step in plain words", () => {
    expect(diagnoseAuthError(new Error("Incompatible auth server: does not support dynamic client registration"))).toEqual({ step: "client", text: NO_CLIENT_IDENTITY });
    expect(diagnoseAuthError(new Error("wrapped", { cause: new OAuthError("invalid_client", "unknown client") }))).toMatchObject({ step: "token", text: expect.stringContaining("did not accept the client (invalid_client)") });
    expect(diagnoseAuthError(new Error("Protected resource https://a/mcp does not match expected https://b/mcp (or origin)")).text).toContain("says it protects “https://a/mcp”");
  });

  it("explains an error the authorization server sent back to the callback", () => {
    const [callback, token] = callbackSteps({ params: new URLSearchParams({ error: "access_denied", state: "s" }), recorded: [] });
    expect(callback).toMatchObject({ status: "failed", diagnosis: expect.stringContaining("Access was denied") });
    expect(callback!.params).toContainEqual({ name: "state", value: "[redacted]", note: "" });
    expect(token!.status).toBe("skipped");
  });
});
