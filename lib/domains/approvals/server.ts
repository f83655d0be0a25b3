import "server-only";
import type { Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { SwitchboardError } from "@/lib/core/errors";
import { publish } from "@/lib/core/events/server";
import { approversInWords, mayDecide, type ApprovalDto, type ApprovalStatus, type DecideApproval, type DenyApproval, type ListApprovals } from "./index";
import { approvalEvent, expireApproval, parseRoles } from "./hold";
import * as q from "./queries";

export { holdForApproval, registerApprovalNotifier, type ApprovalNotice, type HoldOutcome, type HoldRequest } from "./hold";

/** The workspace's approvals, newest first (at most 100); pending ones past their deadline read as expired. */
export async function listApprovals(principal: Principal, filter: ListApprovals): Promise<ApprovalDto[]> {
  const rows = await q.listApprovals({ workspaceId: principal.workspaceId, status: filter.status });
  const pending = rows.filter((r) => r.status === "pending");
  const orphaned = new Map(pending.length ? (await q.callStatuses({ ids: pending.map((r) => r.callId) })).map((c) => [c.id, c.status]) : []);
  const items: ApprovalDto[] = [];
  for (const row of rows) {
    const dto = toDto(await expireIfOrphaned(await expireIfOverdue(row), row.status === "pending" ? (orphaned.get(row.callId) ?? null) : "pending"));
    if (filter.status !== "pending" || dto.status === "pending") items.push(dto);
  }
  return items;
}

/**
 * A person approves or denies a held call. Admins and owners may, and the roles the rule names;
 * nobody approves their own call. 409 once it is decided or expired. The held call (on whichever
 * instance) hears it through the workspace's events.
 */
export async function decideApproval(principal: Principal, id: string, decision: { approve: true; input: DecideApproval } | { approve: false; input: DenyApproval }): Promise<ApprovalDto> {
  const row = await q.findApproval({ workspaceId: principal.workspaceId, id });
  if (!row) throw new SwitchboardError("not_found", "Approval not found");
  const roles = parseRoles(row.approverRoles);
  if (!mayDecide(principal.role, roles)) {
    throw new SwitchboardError("forbidden", `Only ${approversInWords(roles)} may decide this call (rule "${row.ruleName}")`, { approverRoles: ["admin", "owner", ...roles] });
  }
  const held = row.status === "pending" ? ((await q.callStatuses({ ids: [row.callId] }))[0]?.status ?? null) : "pending";
  const current = await expireIfOrphaned(await expireIfOverdue(row), held);
  if (current.status !== "pending") throw alreadyDecided(current);
  if (decision.approve && row.requesterId && row.requesterId === principal.userId) {
    throw new SwitchboardError("forbidden", "You cannot approve your own call: another approver must");
  }
  const status: ApprovalStatus = decision.approve ? "approved" : "denied";
  const reason = decision.input.reason || null;
  const settled = await q.settleApproval({ id, data: { status, reason, decidedById: principal.userId, decidedByName: principal.userName } });
  const after = await q.findApproval({ workspaceId: principal.workspaceId, id });
  if (!settled || !after) throw alreadyDecided(after ?? current);
  publish(principal.workspaceId, approvalEvent(after));
  await audit(principal, {
    action: decision.approve ? "approval.approved" : "approval.denied",
    target: { type: "approval", id, name: `${row.serverName} · ${row.name}` },
    details: { callId: row.callId, ruleId: row.ruleId, reason },
  });
  return toDto(after);
}

/** Pending approvals past their deadline whose call nobody holds any more (its instance stopped): `expired`. */
export async function expireOverdueApprovals(): Promise<string | void> {
  const rows = await q.findOverdue({ now: new Date() });
  let expired = 0;
  for (const row of rows) {
    const full = await q.findApprovalById({ id: row.id });
    if (full && (await expireApproval(full, `No decision within ${Math.round((row.expiresAt.getTime() - row.createdAt.getTime()) / 1000)} s`))) expired++;
  }
  if (expired) return `${expired} approval(s) past their deadline marked expired`;
}

async function expireIfOverdue(row: q.ApprovalRow): Promise<q.ApprovalRow> {
  if (row.status !== "pending" || row.expiresAt.getTime() > Date.now()) return row;
  await expireApproval(row, `No decision within ${Math.round((row.expiresAt.getTime() - row.createdAt.getTime()) / 1000)} s`);
  return (await q.findApprovalById({ id: row.id })) ?? row;
}

/**
 * A pending approval whose call is no longer pending (`callStatus`: the call row's, null when it is
 * gone): the console instance holding the call stopped and the call was marked interrupted, so
 * nobody would send it. It ends `expired`, saying so, instead of an approval that runs nothing.
 */
async function expireIfOrphaned(row: q.ApprovalRow, callStatus: string | null): Promise<q.ApprovalRow> {
  if (row.status !== "pending" || callStatus === "pending") return row;
  const why = callStatus ? `Nobody waits for this call any more: it ended ${callStatus} (the console instance holding it stopped)` : "Its call is gone";
  await expireApproval(row, why);
  return (await q.findApprovalById({ id: row.id })) ?? row;
}

function alreadyDecided(row: q.ApprovalRow): SwitchboardError {
  const by = row.decidedByName ? ` by ${row.decidedByName}` : "";
  const why = row.status === "expired" && row.reason ? `: ${row.reason}` : "";
  return new SwitchboardError("conflict", `This approval was already ${row.status}${by}${why}`, { status: row.status });
}

function toDto(row: q.ApprovalRow): ApprovalDto {
  let params: unknown;
  try {
    params = JSON.parse(row.params) as unknown;
  } catch {
    params = row.params;
  }
  return {
    id: row.id,
    callId: row.callId,
    serverId: row.serverId,
    serverName: row.serverName,
    method: row.method,
    name: row.name,
    params,
    rule: { id: row.ruleId, name: row.ruleName },
    approverRoles: parseRoles(row.approverRoles),
    requester: { id: row.requesterId, name: row.requesterName },
    client: row.client,
    origin: row.origin,
    status: row.status as ApprovalStatus,
    reason: row.reason,
    decidedBy: row.decidedById || row.decidedByName ? { id: row.decidedById, name: row.decidedByName } : null,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}
