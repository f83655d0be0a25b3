import "server-only";
import type { Transport } from "@modelcontextprotocol/client";
import { RelayTransport } from "./transport";
import { agentInstance, relayHub, isAgentHere, isAgentOnline, isAgentServerHere, isAgentServerOnline, revokeLink, serverOutput } from "./hub";

export { agentInstance, isAgentHere, isAgentOnline, isAgentServerHere, isAgentServerOnline, serverOutput, revokeLink };
export { AgentOfflineError, RELAY_ERROR_CODE } from "./transport";

/** Runs `listener` whenever an agent's link comes up here (one listener: a later call replaces it). */
export function onAgentLinkUp(listener: (agentId: string, servers: ReadonlyMap<string, string>, resumed: ReadonlySet<string>) => void): void {
  relayHub().linkUp = listener;
}

/** An SDK transport factory for a server an agent announced (one relay session per call). */
export function relayTransportFactory({ agentId, serverName }: { agentId: string; serverName: string }): () => Transport {
  return () => new RelayTransport({ agentId, serverName });
}
