import { CALL_METHODS, type CallMethod } from "@/lib/domains/calls";
import type { PolicyDecision, PolicySubject } from "@/lib/domains/policies";
import type { GatewayPrincipal } from "./auth";

/** A JSON-RPC error answered to the host. */
export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
  /** The workspace's rules refused it (lib/domains/policies): the call is recorded as `denied`. */
  policy?: PolicyDecision;
}

/** The gate's answer: go on (null), a refusal, or — an `approve` rule — hold the call until a person decides. */
export type Admission = RpcError | { hold: PolicyDecision } | null;

/** Who calls, as the rules see a gateway host: its person's role and id, its API token or OAuth client. */
export function gatewaySubject(who: Pick<GatewayPrincipal, "workspaceId" | "role" | "userId" | "tokenId" | "oauthClientId">): PolicySubject {
  return { workspaceId: who.workspaceId, role: who.role, userId: who.userId, tokenId: who.tokenId, clientId: who.oauthClientId, groups: [] };
}

/** A refusal of the rules as the host gets it: a JSON-RPC error (not an HTTP 403) naming the rule and the argument. */
export function policyRefusal(decision: PolicyDecision): RpcError {
  const ruleId = decision.rule?.id ?? null;
  const error: RpcError = decision.limited
    ? { code: RPC.rateLimited, message: decision.reason, data: { ruleId, reason: decision.reason, retryAfter: decision.retryAfter ?? 1 } }
    : { code: RPC.forbidden, message: decision.reason, data: { ruleId, reason: decision.reason } };
  // Not enumerable: the error is sent to the host as it is, and the decision is the console's.
  return Object.defineProperty(error, "policy", { value: decision, enumerable: false });
}

/** The error a host gets for a call nobody approved: the approval's words (naming the rule). */
export function approvalRefusal(decision: PolicyDecision, outcome: { approvalId: string; status: string; reason: string }): RpcError {
  return { code: RPC.forbidden, message: outcome.reason, data: { ruleId: decision.rule?.id ?? null, reason: outcome.reason, approvalId: outcome.approvalId, status: outcome.status } };
}

/** The methods recorded as calls (and checked by the gate): tools/call, resources/read, prompts/get. */
export function recordedMethod(method: string): method is CallMethod {
  return (CALL_METHODS as readonly string[]).includes(method);
}

export const RPC = {
  invalidParams: -32602,
  invalidRequest: -32600,
  /** Implementation-defined server errors (-32000 to -32099). */
  forbidden: -32001,
  rateLimited: -32002,
} as const;
