import crypto from "node:crypto";

/**
 * Which console process this is. server.ts and Next's route bundles load separate copies of lib/,
 * so the id travels in the environment, set once before Next starts.
 */
export function instanceId(): string {
  return (process.env.SWITCHBOARD_INSTANCE_ID ??= crypto.randomUUID());
}

/** How often an instance beats (SWITCHBOARD_HEARTBEAT_MS, default 5 s); three missed beats mean it is gone. */
export function heartbeatMs(): number {
  const configured = Number(process.env.SWITCHBOARD_HEARTBEAT_MS);
  return Number.isInteger(configured) && configured > 0 ? configured : 5000;
}
