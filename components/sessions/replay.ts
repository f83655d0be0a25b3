import { CALL_METHODS, type CallMethod, type CallTool, type GetPrompt, type ReadResource } from "@/lib/domains/calls";
import type { TrafficMessageDto } from "@/lib/domains/traffic";

/** A message the call API can send again: its method and JSON-RPC params (without `_meta`). */
export interface ReplayableRequest {
  method: CallMethod;
  params: Record<string, unknown>;
}

/**
 * What Replay and Edit and send would send for this message, or why they cannot: only requests
 * the console sent with a method the call API records (tools/call, resources/read, prompts/get).
 */
export function replayOf(m: TrafficMessageDto): { request: ReplayableRequest } | { reason: string } {
  if (m.kind !== "request") return { reason: `${m.kind === "error" ? "an error" : `a ${m.kind}`} is not a request: only requests the console sent can be sent again` };
  if (m.direction !== "out") return { reason: "a request from the server: only requests the console sent can be sent again" };
  if (!CALL_METHODS.includes(m.method as CallMethod)) return { reason: `${m.method ?? "this method"} is not recorded as a call: only ${CALL_METHODS.join(", ")} can be sent again` };
  if (m.truncated) return { reason: "the recorded message was cut, so its params are incomplete" };
  try {
    const { _meta: _, ...params } = ((JSON.parse(m.body) as { params?: Record<string, unknown> }).params ?? {}) as Record<string, unknown>;
    return { request: { method: m.method as CallMethod, params } };
  } catch {
    return { reason: "the recorded message is not valid JSON" };
  }
}

export type ReplayCall =
  | { method: "tools/call"; body: CallTool }
  | { method: "resources/read"; body: ReadResource }
  | { method: "prompts/get"; body: GetPrompt };

/**
 * The call API body that sends `request` (recorded as a re-run of `rerunOf` when given), or what is
 * missing from its params.
 */
export function callBodyOf(request: ReplayableRequest, rerunOf: string | null): ReplayCall | { error: string } {
  const { method, params } = request;
  const rerun = rerunOf ? { rerunOf } : {};
  const args = params.arguments ?? {};
  if (typeof args !== "object" || Array.isArray(args) || args === null) return { error: "params.arguments must be an object" };
  if (method === "resources/read") {
    return typeof params.uri === "string" && params.uri ? { method, body: { uri: params.uri, ...rerun } } : { error: "resources/read needs params.uri, a string" };
  }
  if (typeof params.name !== "string" || !params.name) return { error: `${method} needs params.name, a string` };
  if (method === "prompts/get") {
    if (Object.values(args).some((v) => typeof v !== "string")) return { error: "prompts/get arguments are strings" };
    return { method, body: { name: params.name, arguments: args as Record<string, string>, ...rerun } };
  }
  return { method, body: { name: params.name, arguments: args as Record<string, unknown>, ...rerun } };
}
