import "server-only";
import { SwitchboardError } from "@/lib/errors";
import { countMonitors } from "./queries";

/** Monitors a workspace may have, paused ones included (SWITCHBOARD_MAX_MONITORS; default 100). */
export function maxMonitors(): number {
  const configured = Number(process.env.SWITCHBOARD_MAX_MONITORS);
  return Number.isInteger(configured) && configured > 0 ? configured : 100;
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
