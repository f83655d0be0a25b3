import { config } from "@/lib/core/config";
import { runtime } from "@/lib/core/runtime";

/** Which console instance this process is (fixed when lib/start creates the runtime). */
export function instanceId(): string {
  return runtime().instanceId;
}

/** How often an instance beats (SWITCHBOARD_HEARTBEAT_MS, default 5 s); three missed beats mean it is gone. */
export function heartbeatMs(): number {
  return config().heartbeatMs;
}
