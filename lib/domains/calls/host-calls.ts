import "server-only";
import crypto from "node:crypto";
import type { credentialUsed } from "@/lib/domains/server-oauth/server";
import type { ServerSecretRow } from "@/lib/domains/servers/server";
import type { CallError, CallMethod, CallOrigin, CallStatus } from "./index";
import { completeDurably } from "./complete";
import { recordFailedCall, recordPending, recordProgress } from "./journal";
import { callSecrets, recordedText } from "./redacted";
import { callCompletion, pendingCall } from "./row";
import { takeCallRoom } from "./quota";
import type { Context, Link } from "@opentelemetry/api";
import { startCallSpan, type CallSpan } from "@/lib/core/telemetry";
import type { Timing } from "@/lib/core/timing";
import { recordedTiming, type UpstreamSplit } from "./timing";

interface RelayedCall {
  server: ServerSecretRow;
  userId: string;
  userName: string;
  method: CallMethod;
  name: string;
  params: Record<string, unknown>;
  origin: CallOrigin;
  /** The host that made the call ("name version"). */
  client: string | null;
  /** Whose OAuth credential the session runs with (`credentialUsed`), looked up once per session by the caller. */
  credential: Awaited<ReturnType<typeof credentialUsed>>;
  /** A call through a virtual server (lib/gateway): its name. */
  virtualServer?: string | null;
  /** The rule that refused the call, or holds it for approval (lib/domains/policies). */
  policyRuleId?: string | null;
  /** The trace the host's request continues (lib/core/telemetry `hostContext`): its `_meta`'s, or the HTTP request's. */
  trace?: { parent: Context; links: Link[]; sessionId?: string | null };
}

export type HostCallOutcome = { result: Record<string, unknown> } | { status: Exclude<CallStatus, "pending" | "ok">; error: CallError };

interface RelayedCallHandle {
  id: string;
  /** Runs `fn` (the request's way upstream) in the call's span, so the server's side joins its trace. */
  traced<T>(fn: () => T): T;
  /** The arguments as history records them (secrets masked): what an approver is shown. */
  params: string;
  progress(progress: Record<string, unknown>): void;
  /** `timing`: the gateway request's stages so far (recorded with the answer); `split`: what is known of the network under its upstream stage. */
  finish(outcome: HostCallOutcome, timing?: Timing, split?: UpstreamSplit): Promise<void>;
}

/**
 * Records a call another MCP host sends through the console (lib/gateway) exactly like one the
 * console makes: pending before the request leaves, completed once its answer (or failure) passes.
 */
export async function beginHostCall(call: RelayedCall): Promise<RelayedCallHandle> {
  await takeCallRoom(call.server.workspaceId);
  const where = { workspaceId: call.server.workspaceId, serverId: call.server.id, row: call.server };
  const secrets = await callSecrets(where);
  const { server, params, trace, ...asked } = call;
  const span = spanOf(call);
  const startedAt = new Date();
  const pending = pendingCall({ ...asked, workspaceId: server.workspaceId, serverId: server.id, sessionId: null, params, secrets, requestId: crypto.randomUUID(), sentInvalid: false, startedAt, traceId: span.traceId });
  await recordPending(pending).catch((err: unknown) => {
    span.fail(err);
    throw err;
  });
  span.identify(pending);
  const { id } = pending;
  const t0 = performance.now();
  let progressWrite: Promise<unknown> = Promise.resolve();
  return {
    id,
    params: pending.params,
    traced: span.run,
    progress(progress) {
      progressWrite = progressWrite.then(() => recordProgress(id, recordedText(JSON.stringify(progress), secrets))).catch(() => undefined);
    },
    async finish(ended, timing, split) {
      const recorded = timing ? recordedTiming(timing, split) : null;
      await progressWrite;
      const durationMs = performance.now() - t0;
      const outcome = "result" in ended ? { status: ended.result.isError === true ? ("error" as const) : ("ok" as const), result: ended.result } : ended;
      const secretsNow = await callSecrets(where).catch(() => secrets);
      const completion = callCompletion({ outcome, secrets: secretsNow, startedAt, durationMs, timing: recorded });
      span.end(completion);
      await completeDurably(id, completion);
    },
  };
}

/** A host's call the workspace's rules refused: recorded finished (status `denied`, the rule), never sent. */
export async function refuseHostCall(call: RelayedCall, error: CallError): Promise<string> {
  const where = { workspaceId: call.server.workspaceId, serverId: call.server.id, row: call.server };
  const secrets = await callSecrets(where);
  const { server, params, trace, ...asked } = call;
  const span = spanOf(call);
  const startedAt = new Date();
  const pending = pendingCall({ ...asked, workspaceId: server.workspaceId, serverId: server.id, sessionId: null, params, secrets, requestId: crypto.randomUUID(), sentInvalid: false, startedAt, traceId: span.traceId });
  const completion = callCompletion({ outcome: { status: "denied", error }, secrets, startedAt, durationMs: 0 });
  span.identify(pending);
  span.end(completion);
  await recordFailedCall({ ...pending, ...completion });
  return pending.id;
}

function spanOf(call: RelayedCall): CallSpan {
  return startCallSpan({ method: call.method, name: call.name, origin: call.origin, client: call.client, parent: call.trace?.parent, links: call.trace?.links, sessionId: call.trace?.sessionId });
}
