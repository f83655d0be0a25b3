import "server-only";
import { ProtocolError } from "@modelcontextprotocol/server";
import { ownOutageOutcome, type HostCallOutcome } from "@/lib/domains/calls/server";
import { classifyFailure, toCallError, toJsonRpcError, type JsonRpcFailure } from "@/lib/mcp/server";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import { serverFailure } from "@/lib/domains/sessions/server";

/** A call whose host did not come back with the answers in time (lib/gateway/bridge/input.ts): recorded as timed out. */
export { HostTimeout } from "@/lib/mcp/server";

/** A gateway call's failure as its history row records it (lib/mcp/failures.ts); the console's own database failing is no outcome of the server's. */
export function outcomeOf(err: unknown): HostCallOutcome {
  return ownOutageOutcome(err) ?? toCallError(classifyFailure(err));
}

/** An upstream failure as the JSON-RPC error the host gets: the server's own error as it was, anything else -32603 naming the server. */
export function rpcFailure(server: ServerSecretRow, err: unknown): JsonRpcFailure {
  return toJsonRpcError(serverFailure(server, err), server.name);
}

/** `rpcFailure` as the error an SDK handler throws; a JSON-RPC error already is one. */
export function toProtocol(server: ServerSecretRow, err: unknown): Error {
  if (err instanceof ProtocolError) return err;
  const { code, message, data } = rpcFailure(server, err);
  return new ProtocolError(code, message, data);
}
