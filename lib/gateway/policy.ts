import { CALL_METHODS, type CallMethod } from "@/lib/calls";

/** A JSON-RPC error answered to the host. */
export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export interface Offer {
  tools: string[] | null;
  readOnly: boolean;
}

interface ToolLike {
  name?: unknown;
  annotations?: { readOnlyHint?: unknown } | null;
}

export function recordedMethod(method: string): method is CallMethod {
  return (CALL_METHODS as readonly string[]).includes(method);
}

/** Whether the exposure offers a tool: on the list (when there is one) and read-only when it must be. */
export function offered(offer: Offer, tool: ToolLike): boolean {
  if (typeof tool.name !== "string") return false;
  if (offer.tools && !offer.tools.includes(tool.name)) return false;
  return !offer.readOnly || tool.annotations?.readOnlyHint === true;
}

/** A tools/list page with only the offered tools. */
export function offeredTools(offer: Offer, result: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(result.tools) || (!offer.tools && !offer.readOnly)) return result;
  return { ...result, tools: (result.tools as ToolLike[]).filter((tool) => offered(offer, tool)) };
}

export const RPC = {
  invalidParams: -32602,
  invalidRequest: -32600,
  /** Implementation-defined server errors (-32000 to -32099). */
  forbidden: -32001,
  rateLimited: -32002,
} as const;
