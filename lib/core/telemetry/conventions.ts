import type { Attributes } from "@opentelemetry/api";

// The OpenTelemetry semantic conventions for MCP (gen-ai/mcp.md, development status): span names
// and attributes, shared by the console and the agent (agent/src/tracing.ts).

/** `{mcp.method.name} {target}`: the target is the tool's or prompt's name, never a resource URI (high cardinality). */
export function mcpSpanName(method: string, name?: string | null): string {
  return name && (method === "tools/call" || method === "prompts/get") ? `${method} ${name}` : method;
}

/** The request's attributes: method, tool or prompt name, resource URI, JSON-RPC id, session. */
export function mcpAttributes(request: { method: string; name?: string | null; uri?: string | null; id?: unknown; sessionId?: string | null; protocolVersion?: string | null }): Attributes {
  const attributes: Attributes = { "mcp.method.name": request.method };
  if (request.method === "tools/call" && request.name) {
    attributes["gen_ai.tool.name"] = request.name;
    attributes["gen_ai.operation.name"] = "execute_tool";
  }
  if (request.method === "prompts/get" && request.name) attributes["gen_ai.prompt.name"] = request.name;
  if (request.uri) attributes["mcp.resource.uri"] = request.uri;
  if (typeof request.id === "string" || typeof request.id === "number") attributes["jsonrpc.request.id"] = String(request.id);
  if (request.sessionId) attributes["mcp.session.id"] = request.sessionId;
  if (request.protocolVersion) attributes["mcp.protocol.version"] = request.protocolVersion;
  return attributes;
}

/** What a JSON-RPC answer says of the outcome: `error.type` (the error code, or `tool_error` for a result with isError) and the status code. */
export function mcpOutcome(answer: { error?: { code?: unknown; message?: unknown }; result?: { isError?: unknown } }): { attributes: Attributes; error: string | null } {
  if (answer.error) {
    const code = String(answer.error.code ?? "unknown");
    return { attributes: { "error.type": code, "rpc.response.status_code": code }, error: typeof answer.error.message === "string" ? answer.error.message : code };
  }
  if (answer.result?.isError === true) return { attributes: { "error.type": "tool_error" }, error: "tool_error" };
  return { attributes: {}, error: null };
}

/** W3C Trace Context and Baggage ride unprefixed in `params._meta` (SEP-414). */
export const META_KEYS = ["traceparent", "tracestate", "baggage"] as const;
