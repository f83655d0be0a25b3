"use client";

import Link from "next/link";
import { serverState, StatusDot, type ServerStateView } from "@/components/servers/server-status";
import type { AgentDto, AgentServerDto, AgentServerExit } from "@/lib/domains/agents";
import { useServers } from "@/lib/domains/servers/hooks";

/** "exited with code 1", "killed by SIGTERM", or the agent's own error ("command not found: …"). */
export function exitSummary(exit: AgentServerExit): string {
  if (exit.error) return exit.error;
  if (exit.signal) return `killed by ${exit.signal}`;
  return `exited with code ${exit.code ?? "?"}`;
}

/** The console's status of each agent server (the one wording of `serverState`), by server id. */
export function useServerStatuses(): (server: AgentServerDto) => ServerStateView {
  const servers = useServers();
  return (server) => serverState(servers.data?.find((s) => s.id === server.id) ?? { status: server.online ? "disconnected" : "offline" });
}

/** The servers an agent announced, each linking to its server page, with its status. */
export function AgentServers({ agent }: { agent: AgentDto }) {
  const statusOf = useServerStatuses();

  if (agent.servers.length === 0) {
    return (
      <p className="px-4 py-3 text-sm text-muted">
        {agent.status === "revoked"
          ? "No servers."
          : "No servers yet. Start the agent with a config that lists some: they appear here by name."}
      </p>
    );
  }
  return (
    <ul aria-label={`Servers of ${agent.name}`} className="divide-y">
      {agent.servers.map((server) => {
        const status = statusOf(server);
        return (
          <li key={server.id} className="flex items-center gap-3 px-4 py-2 text-sm">
            <StatusDot state={status} />
            <Link href={`/servers/${server.id}`} className="font-medium hover:underline">
              {server.name}
            </Link>
            <span className="text-xs text-muted" data-testid="agent-server-status">
              {status.label}
            </span>
            {server.lastExit && (
              <span className="ml-auto truncate text-xs text-muted" title={server.lastExit.stderrTail.join("\n") || undefined}>
                last process {exitSummary(server.lastExit)}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
