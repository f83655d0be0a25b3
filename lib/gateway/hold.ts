import "server-only";
import { holdForApproval } from "@/lib/domains/approvals/server";
import { policyError } from "@/lib/domains/calls/server";
import type { PolicyDecision } from "@/lib/domains/policies";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import type { GatewayPrincipal } from "./auth";
import { approvalRefusal, type RpcError } from "./policy";
import type { GatewayCall } from "./recorder";

/** What a host is told while its call waits: a progress notification's params (without the token). */
export interface Waiting {
  progress: number;
  total: number;
  message: string;
}

interface HeldCall {
  /** Recorded already (pending, with the rule): every call is recorded before it is sent. */
  call: GatewayCall;
  decision: PolicyDecision;
  principal: GatewayPrincipal;
  server: ServerSecretRow;
  method: string;
  /** The server's own name for it (a tool or prompt name, a resource URI). */
  name: string;
  client: string | null;
  /** The host gave up (cancelled, went away, its session ended): the approval expires. */
  signal?: AbortSignal;
  /** Called every few seconds while it waits; the paths send it as progress where the host asked for progress. */
  onWaiting?: (waiting: Waiting) => void;
}

/**
 * An `approve` rule's call through the gateway (either path): waits for a person's decision
 * (lib/domains/approvals). Null: approved, send it. Else the JSON-RPC error the host gets; the
 * call is then finished as `denied` with why.
 */
export async function holdGatewayCall(held: HeldCall): Promise<RpcError | null> {
  const { call, decision, principal, server } = held;
  const approval = decision.approval ?? { timeoutSeconds: 300, approverRoles: [] };
  const ruleName = decision.rule?.name ?? "";
  const message = `Waiting for a person's approval in Switchboard (rule "${ruleName}")`;
  let outcome;
  try {
    outcome = await holdForApproval({
      workspaceId: server.workspaceId,
      requester: { userId: principal.userId, name: principal.userName },
      callId: call.id,
      serverId: server.id,
      serverName: server.name,
      method: held.method,
      name: held.name,
      params: call.params,
      ruleId: decision.rule?.id ?? "",
      ruleName,
      approverRoles: approval.approverRoles,
      timeoutSeconds: approval.timeoutSeconds,
      client: held.client,
      origin: "gateway",
      signal: held.signal,
      onWaiting: (elapsedMs) => held.onWaiting?.({ progress: Math.round(elapsedMs / 1000), total: approval.timeoutSeconds, message }),
    });
  } catch (err) {
    call.failed(err);
    return { code: -32603, message: `The approval could not be recorded: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (outcome.approved) return null;
  call.denied(policyError({ rule: decision.rule, reason: outcome.reason }, { approvalId: outcome.approvalId, approval: outcome.status }));
  return approvalRefusal(decision, outcome);
}
