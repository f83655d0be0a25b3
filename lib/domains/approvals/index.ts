import { roleAtLeast, type Role } from "@/lib/core/access";
import type { ListApprovals } from "./schemas";
export type { DecideApproval, DenyApproval, ListApprovals } from "./schemas";

// A call an `approve` rule holds until a person decides (docs/governance.md). Only ./queries.ts writes the table.

/** `expired`: nobody decided within the rule's timeout, or the caller stopped waiting; a denial. */
export const APPROVAL_STATUSES = ["pending", "approved", "denied", "expired"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export interface ApprovalDto {
  id: string;
  callId: string;
  serverId: string;
  serverName: string;
  method: string;
  /** The tool or prompt name, or the resource URI. */
  name: string;
  /** The arguments as history shows them (masked). */
  params: unknown;
  rule: { id: string; name: string };
  /** Roles that may decide besides admins and owners. */
  approverRoles: Role[];
  requester: { id: string | null; name: string | null };
  /** The MCP host ("name version") for gateway calls. */
  client: string | null;
  origin: string;
  status: ApprovalStatus;
  reason: string | null;
  decidedBy: { id: string | null; name: string | null } | null;
  decidedAt: string | null;
  expiresAt: string;
  createdAt: string;
}

/** Whether a role may decide approvals that name `approverRoles`: admins and owners always may. */
export function mayDecide(role: Role, approverRoles: readonly Role[]): boolean {
  return roleAtLeast(role, "admin") || approverRoles.includes(role);
}

/** Who may decide, in words (the 403's message and the page's hint). */
export function approversInWords(approverRoles: readonly Role[]): string {
  const extra = approverRoles.filter((r) => !roleAtLeast(r, "admin"));
  return ["admins", "owners", ...extra.map((r) => `${r}s`)].join(", ").replace(/, ([^,]*)$/, " and $1");
}

export const approvalKeys = {
  all: () => ["approvals"] as const,
  list: (filter: ListApprovals) => ["approvals", "list", filter] as const,
};
