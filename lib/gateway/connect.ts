import "server-only";
import type { Transport } from "@modelcontextprotocol/client";
import { openRelayedUpstream, type ConnectionConfig, type TransportMode } from "@/lib/mcp/server";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import { upstreamConfig } from "@/lib/domains/sessions/server";

// The one way either path opens a server: its configuration as the console's own sessions use it
// (URL, stored headers, address policy, credential), its transport mode, and lib/mcp's fallback rule.

type Hooks = Omit<ConnectionConfig, "url" | "transport" | "headers" | "fetch" | "oauth" | "machine" | "createTransport" | "timeoutMs" | "eraHint">;

/** A bridged connection's configuration (lib/mcp openConnection connects, falling back to HTTP+SSE in auto mode). */
export async function connectionConfig(server: ServerSecretRow, hooks: Hooks): Promise<ConnectionConfig> {
  return {
    ...(await upstreamConfig(server)),
    transport: server.transport as TransportMode,
    timeoutMs: server.timeoutMs,
    eraHint: server.eraHint as "legacy" | "modern" | null,
    protocolEra: server.protocolEra as ConnectionConfig["protocolEra"],
    ...(server.kind === "demo" ? { transportKind: "memory" as const } : {}),
    ...hooks,
  };
}

/** A relayed session's bare upstream transport, and the HTTP+SSE one to try once if its initialize fails (lib/mcp `fallsBackToSse`). */
export async function passthroughUpstream(server: ServerSecretRow): Promise<{ transport: Transport; fallback(err: unknown): Transport | null }> {
  return openRelayedUpstream(await upstreamConfig(server), server.transport as TransportMode);
}
