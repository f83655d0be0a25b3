// Isomorphic door of lib/domains/sessions: DTOs and query keys.

/** What a ping answers: latency when the server answered, else the error; kept on the session row. */
export interface PingOutcome {
  sessionId: string;
  health: "healthy" | "unhealthy";
  latencyMs: number | null;
  error: string | null;
  at: string;
}

export const sessionKeys = {
  ofServer: (serverId: string) => ["sessions", { serverId }] as const,
};
