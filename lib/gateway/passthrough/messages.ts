import type { JSONRPCErrorResponse, JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, JSONRPCResultResponse, Transport } from "@modelcontextprotocol/client";

export type Id = string | number;

// What kind of message it is, by its shape: both transports parsed every message already, and the
// SDK's guards parse it again against its schema (a whole result, on every call).
type Message = JSONRPCMessage & Record<string, unknown>;
export const isJSONRPCRequest = (m: JSONRPCMessage): m is JSONRPCRequest => "method" in m && "id" in m;
export const isJSONRPCNotification = (m: JSONRPCMessage): m is JSONRPCNotification => "method" in m && !("id" in m);
export const isJSONRPCResultResponse = (m: JSONRPCMessage): m is JSONRPCResultResponse => "result" in m && !("method" in m) && typeof (m as Message).result === "object";
export const isJSONRPCErrorResponse = (m: JSONRPCMessage): m is JSONRPCErrorResponse => "error" in m && !("method" in m) && typeof (m as Message).error === "object";

/** Tells an upstream transport that keeps it (Streamable HTTP) the protocol version `initialize` agreed on. */
export function setProtocolVersion(upstream: Transport, result: Record<string, unknown>): void {
  const version = result.protocolVersion;
  const keeper = upstream as Transport & { setProtocolVersion?: (v: string) => void };
  if (typeof version === "string") keeper.setProtocolVersion?.(version);
}
