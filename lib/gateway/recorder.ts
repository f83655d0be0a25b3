import "server-only";
import { hostContext } from "@/lib/core/telemetry";
import type { Timing } from "@/lib/core/timing";
import type { CallError } from "@/lib/domains/calls";
import { beginHostCall, policyError, refuseHostCall } from "@/lib/domains/calls/server";
import type { PolicyDecision } from "@/lib/domains/policies";
import type { CallMethod } from "@/lib/mcp/server";
import { credentialUsed } from "@/lib/domains/server-oauth/server";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import type { GatewayPrincipal } from "./auth";
import { outcomeOf } from "./outcome";

/** Whose OAuth credential a connection runs with: looked up once per connection by its holder (the relay's session, the bridge's pooled upstream). */
export type Credential = ReturnType<typeof credentialUsed>;

export function credentialOf(server: ServerSecretRow): Credential {
  return credentialUsed(server).catch(() => null);
}

interface GatewayCallStart {
  server: ServerSecretRow;
  principal: GatewayPrincipal;
  method: CallMethod;
  name: string;
  /** As the host sent them (without `_meta`). */
  params: Record<string, unknown>;
  /** The host ("name version"), when it said. */
  client: string | null;
  credential: Credential;
  /** A call through a virtual server: its name (the call is the real server's and tool's). */
  virtualServer?: string | null;
  /** The rule holding the call for a person's approval. */
  policyRuleId?: string | null;
  /** The host's request's `_meta` (its trace context, lib/core/telemetry `hostContext`). */
  meta?: unknown;
  /** The host's MCP session with the gateway, when it has one (the span's `mcp.session.id`). */
  sessionId?: string | null;
}

/** One recorded gateway call: finished once, whichever way it ends. */
export interface GatewayCall {
  readonly id: string;
  /** Runs the request's way upstream in the call's span (the server's side joins the host's trace). */
  traced<T>(fn: () => T): T;
  /** The arguments as history records them (secrets masked). */
  readonly params: string;
  progress(progress: Record<string, unknown>): void;
  /** The answer the host got; `timing`: the host's request's stages (recorded on the call). */
  answered(result: Record<string, unknown>, timing?: Timing): void;
  /** It ended without an answer: the server's error, a timeout, a cancellation, the connection gone (lib/gateway/outcome.ts). */
  failed(err: unknown, timing?: Timing): void;
  /** Nobody approved it (lib/gateway/hold.ts): it ends `denied`, never sent. */
  denied(error: CallError): void;
}

/**
 * Records a call of either path (origin gateway) through lib/domains/calls' journal: pending before the
 * request leaves (awaited: throws when the row cannot be written), completed once. The host is
 * never kept waiting for the completion (the journal retries until the database takes it).
 */
export async function beginGatewayCall(start: GatewayCallStart): Promise<GatewayCall> {
  const { principal: who } = start;
  const handle = await beginHostCall({
    server: start.server,
    userId: who.userId,
    userName: who.userName,
    method: start.method,
    name: start.name,
    params: start.params,
    origin: "gateway",
    client: start.client,
    credential: await start.credential,
    virtualServer: start.virtualServer ?? null,
    policyRuleId: start.policyRuleId ?? null,
    trace: { ...hostContext(start.meta), sessionId: start.sessionId ?? null },
  });
  let finished = false;
  const finish = (outcome: Parameters<typeof handle.finish>[0], timing?: Timing) => {
    if (finished) return;
    finished = true;
    void handle.finish(outcome, timing).catch(() => undefined);
  };
  return {
    id: handle.id,
    params: handle.params,
    traced: handle.traced,
    progress: (progress) => {
      if (!finished) handle.progress(progress);
    },
    answered: (result, timing) => finish({ result }, timing),
    failed: (err, timing) => finish(outcomeOf(err), timing),
    denied: (error) => finish({ status: "denied", error }),
  };
}

/** A call the workspace's rules refused at the gate: recorded in history (status `denied`, the rule), never sent. */
export async function recordRefusal(start: GatewayCallStart, decision: PolicyDecision): Promise<void> {
  const { principal: who } = start;
  await refuseHostCall(
    {
      server: start.server,
      userId: who.userId,
      userName: who.userName,
      method: start.method,
      name: start.name,
      params: start.params,
      origin: "gateway",
      client: start.client,
      credential: null,
      policyRuleId: decision.rule?.id ?? null,
      virtualServer: start.virtualServer ?? null,
      trace: { ...hostContext(start.meta), sessionId: start.sessionId ?? null },
    },
    policyError(decision),
  );
}
