export type { CreatePairing, PairAgent } from "./schemas";

/** How long a pairing code stays valid. */
export const PAIRING_TTL_MS = 10 * 60 * 1000;

export type AgentStatus = "online" | "offline" | "revoked";

/** How a server process of an agent last ended. */
export interface AgentServerExit {
  code: number | null;
  signal: string | null;
  error: string | null;
  stderrTail: string[];
  at: string;
}

export interface AgentServerDto {
  /** The Server row's id (use the servers API to browse and call it). */
  id: string;
  name: string;
  /** Announced by the agent in its current connection. */
  online: boolean;
  lastExit: AgentServerExit | null;
  /** Recent stderr lines of the server's processes (live while it runs; kept in memory). */
  stderr: string[];
  /**
   * Roots the agent left out of the server's last `roots/list` answer: missing on its machine, or
   * outside the directories its config allows for this server (kept in memory).
   */
  rootsRefused: { uri: string; reason: string; at: string }[];
}

export interface AgentDto {
  id: string;
  name: string;
  hostname: string | null;
  version: string | null;
  status: AgentStatus;
  lastSeenAt: string | null;
  createdAt: string;
  revokedAt: string | null;
  /** The user whose pairing code created it (members may revoke only their own agents). */
  createdBy: string | null;
  servers: AgentServerDto[];
}

/** A fresh pairing code: shown once, single use, expires after 10 minutes. */
export interface PairingDto {
  code: string;
  name: string;
  expiresAt: string;
  /** The command to run on the machine to pair. */
  command: string;
}

/** The agent's own view (GET /api/v1/agents/self, agent token). */
export interface AgentSelfDto {
  agent: { id: string; name: string; status: AgentStatus };
  workspace: { id: string; name: string };
}

export const agentKeys = {
  all: () => ["agents"] as const,
  detail: (id: string) => ["agents", id] as const,
};
