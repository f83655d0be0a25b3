import "server-only";
import type { Transport } from "@modelcontextprotocol/client";
import { RelayTransport } from "./transport";
import { agentInstance, isAgentHere, isAgentOnline, isAgentServerHere, isAgentServerOnline, revokeLink, serverOutput } from "./hub";

export { agentInstance, isAgentHere, isAgentOnline, isAgentServerHere, isAgentServerOnline, serverOutput, revokeLink };
export { AgentOfflineError, RELAY_ERROR_CODE } from "./transport";

/** An SDK transport factory for a server an agent announced (one relay session per call). */
export function relayTransportFactory({ agentId, serverName }: { agentId: string; serverName: string }): () => Transport {
  return () => new RelayTransport({ agentId, serverName });
}
