"use client";

import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import type { ServerDto } from "@/lib/domains/servers";
import { useAgent } from "@/lib/domains/agents/hooks";
import { lastSeen } from "./agent-status";

const LINK = "font-medium underline underline-offset-2";

/** "via agent <name>", linking to the agent. */
export function ViaAgent({ agentId }: { agentId: string }) {
  const agent = useAgent(agentId);
  return (
    <span className="font-sans" data-testid="via-agent">
      via agent{" "}
      <Link href={`/agents/${agentId}`} className="text-fg hover:underline">
        {agent.data?.name ?? "…"}
      </Link>
    </span>
  );
}

/** Why an agent or imported stdio server cannot be reached right now, if that is the case. */
export function AgentServerNotice({ server }: { server: ServerDto }) {
  if (server.status === "waiting") {
    return (
      <Alert tone="info" title={<>Waiting for an agent that lists {server.name}</>}>
        This stdio server runs on a machine with the Switchboard agent. It comes online when an agent whose config lists a server named “{server.name}” connects.{" "}
        <Link href="/agents" className={LINK}>
          Agents
        </Link>
      </Alert>
    );
  }
  if (server.status !== "offline") return null;
  if (server.agentId) return <AgentOffline server={server} agentId={server.agentId} />;
  return (
    <Alert tone="warning" title="Agent offline">
      The agent that hosted this server is gone. Pair an agent that lists “{server.name}” to bring it back.{" "}
      <Link href="/agents" className={LINK}>
        Agents
      </Link>
    </Alert>
  );
}

function AgentOffline({ server, agentId }: { server: ServerDto; agentId: string }) {
  const { data } = useAgent(agentId);
  let text = "The agent that hosts this server is not connected, so calls fail at once. Start the agent on its machine and it comes back.";
  if (data?.status === "revoked") text = `The agent “${data.name}” was revoked. Pair an agent that lists “${server.name}” to bring this server back.`;
  else if (data?.status === "online") text = `The agent “${data.name}” is connected but does not list “${server.name}” any more. Add it back to its config.`;
  else if (data) text = `The agent “${data.name}” is not connected (last seen ${lastSeen(data)}), so calls fail at once. Start it on its machine and this server comes back.`;
  return (
    <Alert tone="warning" title="Agent offline">
      {text}{" "}
      <Link href={`/agents/${agentId}`} className={LINK}>
        Agent details
      </Link>
    </Alert>
  );
}
