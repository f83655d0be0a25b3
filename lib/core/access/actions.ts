import type { ApiRouteKey } from "@/lib/core/routes";
import { auditorMay, ROLES, roleAtLeast, type Role } from "./index";
import { ROUTE_ACCESS } from "./matrix";

/**
 * What the UI offers, each named by the API route that does it: the gate of a control and its
 * "why not" both read the role matrix, so a control cannot claim a rule the API does not apply.
 */
const ACTIONS = {
  run: ["POST /api/v1/servers/:id/tools/call", "run calls"],
  rerun: ["POST /api/v1/calls/:id/rerun", "run calls again"],
  connect: ["POST /api/v1/servers/:id/connect", "connect servers"],
  disconnect: ["POST /api/v1/servers/:id/disconnect", "disconnect servers"],
  ping: ["POST /api/v1/servers/:id/ping", "ping servers"],
  addServer: ["POST /api/v1/servers", "add servers"],
  editServer: ["PATCH /api/v1/servers/:id", "edit servers"],
  editMonitor: ["PATCH /api/v1/monitors/:id", "edit monitors"],
  archiveServer: ["DELETE /api/v1/servers/:id", "archive servers"],
  share: ["POST /api/v1/calls/:id/shares", "share calls"],
  invite: ["POST /api/v1/invitations", "invite people"],
  changeRole: ["PATCH /api/v1/members/:userId", "change roles"],
  readAudit: ["GET /api/v1/audit", "read the audit log"],
} as const satisfies Record<string, readonly [ApiRouteKey, string]>;

export type Action = keyof typeof ACTIONS;

export function isAction(name: string): name is Action {
  return Object.hasOwn(ACTIONS, name);
}

/** Whether an auditor may do an action, as the gate judges it (lib/core/access `auditorMay`). */
export function auditorMayAct(action: Action): boolean {
  const key = ACTIONS[action][0];
  return auditorMay(key, ROUTE_ACCESS[key], key.slice(0, key.indexOf(" ")));
}

/** The least role an action needs, as the API judges it. */
export function actionRole(action: Action): Role {
  const access = ROUTE_ACCESS[ACTIONS[action][0]];
  return access === "public" ? "viewer" : access;
}

const PLURAL: Record<Role, string> = { viewer: "viewers", auditor: "auditors", member: "members", admin: "admins", owner: "owners" };

/** "members, admins and the owner": the roles from `min` up. */
function whoCan(min: Role): string {
  const names = ROLES.filter((r) => roleAtLeast(r, min)).map((r) => (r === "owner" ? "the owner" : PLURAL[r]));
  return names.length === 1 ? `only ${names[0]}` : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * Why `role` may not do something that needs `min`, naming who can and whom to ask:
 * "Viewers can't run calls — members, admins and the owner can; ask an admin."
 */
export function deniedReason(role: Role, min: Role, verb = "do this"): string {
  const who = PLURAL[role];
  const ask = actionRole("changeRole");
  const tail = min === "owner" ? "" : `; ask ${ask === "admin" || ask === "owner" ? "an" : "a"} ${ask} to change your role`;
  return `${who[0]!.toUpperCase()}${who.slice(1)} can't ${verb} — ${whoCan(min)} can${tail}.`;
}

/** The role and the words for a gate given either a role or an action. */
export function gateOf(gate: Role | Action): { min: Role; verb?: string } {
  return isAction(gate) ? { min: actionRole(gate), verb: ACTIONS[gate][1] } : { min: gate };
}
