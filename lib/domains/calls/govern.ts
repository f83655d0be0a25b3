import "server-only";
import type { Principal } from "@/lib/core/access";
import { SwitchboardError } from "@/lib/core/errors";
import type { PolicyDecision, PolicyKind, PolicySubject } from "@/lib/domains/policies";
import { decide } from "@/lib/domains/policies/server";
import { holdForApproval } from "@/lib/domains/approvals/server";
import type { SecretValues } from "@/lib/core/redaction";
import type { CallError, CallMethod } from "./index";
import { completeDurably } from "./complete";
import { recordFailedCall, type PendingCall } from "./journal";
import { callCompletion, pendingCall, type CallRequestRow } from "./row";

// The policy step of every call the console makes (docs/governance.md): the API, collections,
// monitors and apps all come through runCall, which asks here once the server is known.

export const POLICY_KIND: Record<CallMethod, PolicyKind> = { "tools/call": "tool", "prompts/get": "prompt", "resources/read": "resource" };

/** Who calls, as the rules see an API caller (a person's session or an API token). */
export function apiSubject(principal: Pick<Principal, "workspaceId" | "role" | "userId" | "tokenId">): PolicySubject {
  return { workspaceId: principal.workspaceId, role: principal.role, userId: principal.userId, tokenId: principal.tokenId ?? null, clientId: null, groups: [] };
}

/** What a rule's conditions look at: a tool's or prompt's arguments, a resource read's `{ uri }`. */
export function governedArguments(method: CallMethod, params: Record<string, unknown>): unknown {
  return method === "resources/read" ? { uri: params.uri } : (params.arguments ?? {});
}

/** The rules' decision on one call of the console's own (the API, a collection step, a monitor, an app). */
export function decideCall(principal: Principal, req: { serverId: string; method: CallMethod; name: string; params: Record<string, unknown> }): Promise<PolicyDecision> {
  const args = governedArguments(req.method, req.params);
  return decide({ subject: apiSubject(principal), serverId: req.serverId, kind: POLICY_KIND[req.method], name: req.name, arguments: args });
}

/** The rule a refused or held call records (`Call.policyRuleId`); null for a call the rules allowed. */
export function ruleOf(decision: PolicyDecision): string | null {
  return decision.effect === "allow" ? null : (decision.rule?.id ?? null);
}

/** The error a refused call records: kind `policy`, the reason (naming the rule and the argument) as its message. */
export function policyError(decision: Pick<PolicyDecision, "rule" | "reason" | "retryAfter">, extra: Record<string, unknown> = {}): CallError {
  const retry = decision.retryAfter === undefined ? {} : { retryAfter: decision.retryAfter };
  return { kind: "policy", message: decision.reason, data: { ruleId: decision.rule?.id ?? null, ruleName: decision.rule?.name ?? null, ...retry, ...extra } };
}

/** The API's answer to a refused call: 403 `policy_denied`, or 429 with Retry-After for a rule's rate limit. */
export function refusal(decision: Pick<PolicyDecision, "rule" | "reason" | "retryAfter" | "limited">, callId: string, extra: Record<string, unknown> = {}): SwitchboardError {
  const details = { ruleId: decision.rule?.id ?? null, ruleName: decision.rule?.name ?? null, reason: decision.reason, callId, ...extra };
  if (decision.limited) return new SwitchboardError("too_many_requests", decision.reason, { ...details, retryAfter: decision.retryAfter ?? 1 });
  return new SwitchboardError("policy_denied", decision.reason, details);
}

/** A call the rules refuse: recorded (status `denied`, the rule) without being sent, then answered as the API's refusal. */
export async function refuseCall(asked: Omit<CallRequestRow, "sessionId" | "credential" | "sentInvalid" | "startedAt">, decision: PolicyDecision): Promise<never> {
  const startedAt = new Date();
  const call = pendingCall({ ...asked, sessionId: null, credential: null, sentInvalid: false, startedAt, policyRuleId: ruleOf(decision) });
  await recordFailedCall({ ...call, ...callCompletion({ outcome: { status: "denied", error: policyError(decision) }, secrets: asked.secrets, startedAt, durationMs: 0 }) });
  throw refusal(decision, call.id);
}

interface Held {
  principal: Principal;
  decision: PolicyDecision;
  pending: PendingCall;
  serverName: string;
  secrets: SecretValues;
  /** A Cancel of the call (by its request id) stops the wait. */
  signal: AbortSignal;
}

/**
 * An `approve` decision: the pending call waits for a person (lib/domains/approvals). Resolves
 * when approved; otherwise completes the row as `denied` with why and throws the API's refusal.
 */
export async function awaitApproval({ principal, decision, pending, serverName, secrets, signal }: Held): Promise<void> {
  const approval = decision.approval ?? { timeoutSeconds: 300, approverRoles: [] };
  const outcome = await holdForApproval({
    workspaceId: principal.workspaceId,
    requester: { userId: principal.userId, name: principal.userName },
    callId: pending.id,
    serverId: pending.serverId,
    serverName,
    method: pending.method,
    name: pending.name,
    params: pending.params,
    ruleId: decision.rule?.id ?? "",
    ruleName: decision.rule?.name ?? "",
    approverRoles: approval.approverRoles,
    timeoutSeconds: approval.timeoutSeconds,
    client: null,
    origin: pending.origin,
    signal,
  });
  if (outcome.approved) return;
  const refused = { rule: decision.rule, reason: outcome.reason };
  const extra = { approvalId: outcome.approvalId, approval: outcome.status };
  const startedAt = pending.startedAt;
  await completeDurably(pending.id, callCompletion({ outcome: { status: "denied", error: policyError(refused, extra) }, secrets, startedAt, durationMs: Date.now() - startedAt.getTime() }));
  throw refusal(refused, pending.id, extra);
}

/** The recorded call a refusal of the rules names (the 403's or 429's `details.callId`), else null: a refused call, not a crash. */
export function refusedCallId(err: unknown): string | null {
  if (!(err instanceof SwitchboardError) || (err.code !== "policy_denied" && err.code !== "too_many_requests")) return null;
  const callId = (err.details as { callId?: unknown } | undefined)?.callId;
  return typeof callId === "string" ? callId : null;
}
