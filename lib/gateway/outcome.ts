import "server-only";
import { ProtocolError } from "@modelcontextprotocol/server";
import type { RelayedOutcome } from "@/lib/calls/server";
import { McpError } from "@/lib/mcp/server";
import type { ServerSecretRow } from "@/lib/servers/server";
import { upstreamFailure } from "@/lib/sessions/server";

/** A call whose host did not come back with the answers in time (lib/gateway/bridge/input.ts): recorded as timed out. */
export class HostTimeout extends Error {}

export function outcomeOf(err: unknown): RelayedOutcome {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof HostTimeout) return { status: "timeout", error: { kind: "timeout", message } };
  if (err instanceof McpError && err.kind === "protocol") return { status: "error", error: { kind: "protocol", message, ...(err.code === undefined ? {} : { code: err.code }), ...(err.data === undefined ? {} : { data: err.data }) } };
  if (err instanceof McpError && err.kind === "cancelled") return { status: "cancelled", error: { kind: "cancelled", message } };
  if (err instanceof McpError && err.kind === "timeout") return { status: "timeout", error: { kind: "timeout", message } };
  return { status: "error", error: { kind: "connection", message } };
}

/** An upstream failure as the JSON-RPC error the host gets: the server's own error as it was, anything else -32603 explained. */
export function toProtocol(server: ServerSecretRow, err: unknown): Error {
  if (err instanceof ProtocolError) return err;
  if (err instanceof McpError && err.kind === "protocol" && err.code !== undefined) return new ProtocolError(err.code, err.message, err.data);
  return new ProtocolError(-32603, `"${server.name}": ${upstreamFailure(server, err).message}`);
}
