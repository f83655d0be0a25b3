import "server-only";
import type { ServerSecretRow } from "@/lib/servers/server";
import { SwitchboardError } from "@/lib/errors";
import { isAgentOnline, isAgentServerOnline, relayTransportFactory } from "@/lib/relay/server";

/** HTTP servers use the SDK's own transports; agent servers get a relay transport. */
export function connectionTransportFor(server: ServerSecretRow) {
  if (server.kind === "http") return undefined;
  if (server.kind === "stdio") {
    throw new SwitchboardError("unavailable", `"${server.name}" is a stdio server: pair an agent that lists it to reach it`);
  }
  if (!server.agentId) throw new SwitchboardError("unavailable", `"${server.name}" has no agent`);
  if (!isAgentOnline(server.agentId)) throw new SwitchboardError("unavailable", `agent offline: the agent serving "${server.name}" is not connected`);
  if (!isAgentServerOnline(server.agentId, server.name)) {
    throw new SwitchboardError("unavailable", `agent offline: the agent no longer lists "${server.name}" in its config`);
  }
  return relayTransportFactory({ agentId: server.agentId, serverName: server.name });
}
