import "server-only";
import { publish } from "@/lib/core/events/server";
import type { McpConnection } from "@/lib/mcp/server";
import type { PingOutcome } from "./index";
import { config } from "@/lib/core/config";
import { piece } from "@/lib/core/runtime";
import * as q from "./queries";

/** A ping that takes longer than this counts as no answer. */
const PING_TIMEOUT_MS = config().healthTimeoutMs;

export interface PingTarget {
  workspaceId: string;
  serverId: string;
  sessionId: string;
  connection: McpConnection;
}

/**
 * Pings a live session and measures the round trip. The outcome is kept on the session row
 * (`health`, `lastPingMs`, `healthError`) and published; a failure is an outcome, not a throw.
 */
const pings = () => piece("sessionPings", () => new Map<string, number>());

/** The last round trip a ping of this session measured in this process (ms), if one answered. */
export function lastPingMs(sessionId: string): number | undefined {
  return pings().get(sessionId);
}

export async function pingSession(target: PingTarget, timeoutMs = PING_TIMEOUT_MS): Promise<PingOutcome> {
  const started = performance.now();
  let outcome: PingOutcome;
  try {
    await target.connection.ping({ timeoutMs });
    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    outcome = { sessionId: target.sessionId, health: "healthy", latencyMs, error: null, at: new Date().toISOString() };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    outcome = { sessionId: target.sessionId, health: "unhealthy", latencyMs: null, error, at: new Date().toISOString() };
  }
  if (outcome.latencyMs === null) pings().delete(target.sessionId);
  else pings().set(target.sessionId, outcome.latencyMs);
  await q.markHealth({ id: target.sessionId, ...outcome, at: new Date(outcome.at) }).catch(() => undefined);
  publish(target.workspaceId, { type: "health", serverId: target.serverId, ...outcome });
  return outcome;
}

/** Pings every live session (the `sessions.health` job, lib/start/jobs.ts); a round's failures are outcomes, not throws. */
export async function pingAll(targets: PingTarget[]): Promise<void> {
  const live = new Set(targets.map((t) => t.sessionId));
  for (const id of pings().keys()) if (!live.has(id)) pings().delete(id);
  await Promise.all(targets.map((t) => pingSession(t)));
}
