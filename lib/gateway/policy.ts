import { CALL_METHODS, type CallMethod } from "@/lib/domains/calls";

/** A JSON-RPC error answered to the host. */
export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** The methods recorded as calls (and checked by the gate): tools/call, resources/read, prompts/get. */
export function recordedMethod(method: string): method is CallMethod {
  return (CALL_METHODS as readonly string[]).includes(method);
}

export const RPC = {
  invalidParams: -32602,
  invalidRequest: -32600,
  /** Implementation-defined server errors (-32000 to -32099). */
  forbidden: -32001,
  rateLimited: -32002,
} as const;
