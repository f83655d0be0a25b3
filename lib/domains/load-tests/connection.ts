import "server-only";
import { openConnection, type McpConnection, type ProtocolEra } from "@/lib/mcp/server";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import { upstreamConfig } from "@/lib/domains/sessions/server";

/**
 * A virtual user's own MCP session to a server: reached as the console reaches it (its URL,
 * headers and credential through the outbound address policy, or a relay session on its agent),
 * but neither registered as the console's live session nor recorded in traffic: a load test's
 * calls are counted, not kept. A server's requests to the client (sampling, elicitation) are refused.
 */
export async function openUserConnection(server: ServerSecretRow): Promise<McpConnection> {
  return openConnection({
    ...(await upstreamConfig(server)),
    transport: server.transport as "auto",
    timeoutMs: server.timeoutMs,
    eraHint: server.eraHint as "legacy" | "modern" | null,
    protocolEra: server.protocolEra as ProtocolEra,
    ...(server.kind === "demo" ? { transportKind: "memory" as const } : {}),
    onServerRequest: async () => ({ error: { code: -32601, message: "A load test's virtual user does not answer server requests" } }),
  });
}
