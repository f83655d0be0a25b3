import "server-only";
import { publish } from "@/lib/events/server";
import type { McpConnection } from "@/lib/mcp/server";
import type { PingOutcome } from "./index";
import * as q from "./queries";
import { piece } from "@/lib/runtime";

/** How often live sessions are pinged (SWITCHBOARD_HEALTH_INTERVAL_MS overrides; 0 turns it off). */
const INTERVAL_MS = Number(process.env.SWITCHBOARD_HEALTH_INTERVAL_MS ?? 30_000);
/** A ping that takes longer than this counts as no answer. */
const PING_TIMEOUT_MS = Number(process.env.SWITCHBOARD_HEALTH_TIMEOUT_MS ?? 10_000);

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
  await q.markHealth({ id: target.sessionId, ...outcome, at: new Date(outcome.at) }).catch(() => undefined);
  publish(target.workspaceId, { type: "health", serverId: target.serverId, ...outcome });
  return outcome;
}

interface HealthMonitor {
  timer: NodeJS.Timeout | null;
  targets: () => Promise<PingTarget[]>;
  running: boolean;
}

const monitor = () => piece("health", (): HealthMonitor => ({ timer: null, targets: async () => [], running: false }));

/**
 * Starts (once per process) the periodic health check of every live session; `targets` lists them.
 * Rounds never overlap, and the timer does not keep the process alive.
 */
export function ensureHealthMonitor(targets: () => Promise<PingTarget[]>): void {
  const state = monitor();
  state.targets = targets;
  if (state.timer || !(INTERVAL_MS > 0)) return;
  state.timer = setInterval(() => {
    if (state.running) return;
    state.running = true;
    void state
      .targets()
      .then((list) => Promise.all(list.map((t) => pingSession(t))))
      .catch(() => undefined)
      .finally(() => (state.running = false));
  }, INTERVAL_MS);
  state.timer.unref();
}
