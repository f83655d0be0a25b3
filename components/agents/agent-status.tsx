import { Badge, type BadgeTone } from "@/components/ui/badge";
import { formatTime } from "@/components/calls/format";
import type { AgentDto, AgentStatus } from "@/lib/domains/agents";

const TONE: Record<AgentStatus, BadgeTone> = { online: "green", offline: "amber", revoked: "red" };

const EXPLAIN: Record<AgentStatus, string> = {
  online: "Connected to the console",
  offline: "Not connected: start the agent on its machine",
  revoked: "Its token no longer works; pair again to bring its servers back",
};

/** The agent's status word ("online", "offline", "revoked") as a badge. */
export function AgentStatusBadge({ status }: { status: AgentStatus }) {
  return (
    <Badge tone={TONE[status]} title={EXPLAIN[status]} testId="agent-status">
      {status}
    </Badge>
  );
}

/** "now" while the agent is connected, else when it was last connected. */
export function lastSeen(agent: AgentDto): string {
  if (agent.status === "online") return "now";
  return agent.lastSeenAt ? formatTime(agent.lastSeenAt, true) : "never";
}

/** Hostname, version and last seen, as a compact definition list. */
export function AgentFacts({ agent, className }: { agent: AgentDto; className?: string }) {
  const facts: [string, string][] = [
    ["Host", agent.hostname || "—"],
    ["Agent version", agent.version || "—"],
    ["Last seen", lastSeen(agent)],
    ["Paired", formatTime(agent.createdAt, true)],
  ];
  if (agent.revokedAt) facts.push(["Revoked", formatTime(agent.revokedAt, true)]);
  return (
    <dl className={className ?? "flex flex-wrap gap-x-5 gap-y-1 text-xs"}>
      {facts.map(([term, value]) => (
        <div key={term} className="flex gap-1.5">
          <dt className="text-muted">{term}</dt>
          <dd className={term === "Host" || term === "Agent version" ? "font-mono" : undefined}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
