import "server-only";
import { config } from "@/lib/core/config";
import { roleAtLeast } from "@/lib/core/access";
import type { Principal } from "@/lib/core/access";
import { SwitchboardError } from "@/lib/core/errors";
import { networkMode } from "@/lib/core/net/server";
import * as q from "./queries";

export type WorkspaceCreation = "anyone" | "admins" | "none";

/**
 * `SWITCHBOARD_WORKSPACE_CREATION`: who may create workspaces. `anyone` signed in, `admins` (an
 * admin or owner of some workspace) or `none`; unset, `anyone` on a console bound to loopback
 * (network policy `private`) and `admins` on one serving a network. Other values count as `none` (lib/core/config).
 */
export function workspaceCreation(): WorkspaceCreation {
  return config().workspaceCreation ?? (networkMode() === "private" ? "anyone" : "admins");
}

/** Refuses (403) a person the operator's setting does not let create a workspace. */
export async function assertMayCreateWorkspace(principal: Principal): Promise<void> {
  const rule = workspaceCreation();
  if (rule === "anyone") return;
  if (rule === "none") throw new SwitchboardError("forbidden", "Creating workspaces is turned off on this console (SWITCHBOARD_WORKSPACE_CREATION)");
  const memberships = await q.listMemberships({ userId: principal.userId });
  if (memberships.some((m) => roleAtLeast(m.role, "admin"))) return;
  throw new SwitchboardError("forbidden", "Only admins and owners of a workspace may create workspaces on this console; ask an admin to create one and invite you");
}
