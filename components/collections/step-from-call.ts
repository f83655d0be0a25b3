import type { CallDto } from "@/lib/domains/calls";
import type { Step } from "@/lib/domains/collections";

/**
 * A step pre-filled from a recorded call: its server, method, name or uri, arguments, and a
 * status assertion that expects what the call got.
 */
export function stepFromCall(call: Pick<CallDto, "serverId" | "method" | "name" | "params" | "status" | "isError">): Omit<Step, "id"> {
  const params = (call.params && typeof call.params === "object" ? call.params : {}) as { arguments?: unknown; uri?: unknown };
  const args = params.arguments && typeof params.arguments === "object" && !Array.isArray(params.arguments) ? (params.arguments as Record<string, unknown>) : undefined;
  const equals = call.status === "ok" ? (call.isError ? "isError" : "ok") : "error";
  const step: Omit<Step, "id"> = { serverId: call.serverId, method: call.method, assert: [{ kind: "status", equals }] };
  if (call.method === "resources/read") step.uri = typeof params.uri === "string" ? params.uri : call.name;
  else step.name = call.name;
  if (args && call.method !== "resources/read") step.arguments = args;
  return step;
}
