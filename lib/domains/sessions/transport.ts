import "server-only";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import { ServedElsewhere, SwitchboardError } from "@/lib/core/errors";
import { demoTransport } from "@/lib/domains/demo/server";
import { agentInstance, isAgentHere, isAgentServerHere, relayTransportFactory } from "@/lib/relay/server";

/** HTTP servers use the SDK's own transports; agent servers get a relay transport; the demo server an in-memory one. */
export function connectionTransportFor(server: ServerSecretRow) {
  if (server.kind === "http") return undefined;
  if (server.kind === "demo") return demoTransport;
  if (server.kind === "stdio") {
    throw new SwitchboardError("unavailable", `"${server.name}" is a stdio server: pair an agent that lists it to reach it`);
  }
  if (!server.agentId) throw new SwitchboardError("unavailable", `"${server.name}" has no agent`);
  if (!isAgentHere(server.agentId)) throw new SwitchboardError("unavailable", `agent offline: the agent serving "${server.name}" is not connected`);
  if (!isAgentServerHere(server.agentId, server.name)) {
    throw new SwitchboardError("unavailable", `agent offline: the agent no longer lists "${server.name}" in its config`);
  }
  return relayTransportFactory({ agentId: server.agentId, serverName: server.name });
}

/**
 * An agent server whose agent is connected to another console instance: the request goes there.
 * HTTP and demo servers are reachable from every instance (the demo runs inside each), so never.
 */
export function refuseElsewhere(server: Pick<ServerSecretRow, "kind" | "agentId" | "name">): void {
  if (server.kind !== "agent" || !server.agentId) return;
  const there = agentInstance(server.agentId, server.name);
  if (there) throw new ServedElsewhere(there, `The agent serving "${server.name}"`);
}
