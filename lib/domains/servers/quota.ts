import "server-only";
import { config } from "@/lib/core/config";
import { SwitchboardError } from "@/lib/core/errors";
import * as q from "./queries";

/** Active servers a workspace may have (SWITCHBOARD_MAX_SERVERS; default 500). */
export function maxServers(): number {
  return config().maxServers;
}

/** How many more active servers the workspace may have. */
export async function serverRoom(workspaceId: string): Promise<number> {
  return Math.max(0, maxServers() - (await q.findServerNames({ workspaceId })).length);
}

/** 409 with the limit when the workspace has no room for `adding` more active servers. */
export async function assertServerRoom(workspaceId: string, adding = 1): Promise<void> {
  if ((await serverRoom(workspaceId)) >= adding) return;
  const limit = maxServers();
  throw new SwitchboardError("conflict", `This workspace has reached its limit of ${limit} servers: archive one first (or raise SWITCHBOARD_MAX_SERVERS)`, {
    quota: "servers",
    limit,
  });
}
