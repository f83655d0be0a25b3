import "server-only";
import { config } from "@/lib/core/config";
import { SwitchboardError } from "@/lib/core/errors";
import { countMonitors } from "./queries";

/** Monitors a workspace may have, paused ones included (SWITCHBOARD_MAX_MONITORS; default 100). */
export function maxMonitors(): number {
  return config().maxMonitors;
}

/** 409 with the limit when the workspace has no room for one more monitor. */
export async function assertMonitorRoom({ workspaceId }: { workspaceId: string }): Promise<void> {
  const limit = maxMonitors();
  if ((await countMonitors({ workspaceId })) < limit) return;
  throw new SwitchboardError("conflict", `This workspace has reached its limit of ${limit} monitors: delete one first (or raise SWITCHBOARD_MAX_MONITORS)`, {
    quota: "monitors",
    limit,
  });
}
