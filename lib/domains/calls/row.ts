import "server-only";
import crypto from "node:crypto";
import type { credentialUsed } from "@/lib/domains/server-oauth/server";
import type { SecretValues } from "@/lib/core/redaction";
import { instanceId } from "@/lib/core/instances";
import { activeTraceId } from "@/lib/core/telemetry";
import type { CallError, CallMethod, CallOrigin, CallStatus } from "./index";
import type { CallCompletion, PendingCall } from "./journal";
import { recordedRequest, recordedText } from "./redacted";

/** What a call's row records of its request, whoever made it (the console's API, a collection step, a host through the gateway). */
export interface CallRequestRow {
  workspaceId: string;
  serverId: string;
  /** The console's session it went on; null for a call that never reached one, and for the gateway's. */
  sessionId: string | null;
  userId: string;
  userName: string;
  method: CallMethod;
  name: string;
  params: Record<string, unknown>;
  /** Masked in the recorded name and arguments. */
  secrets: SecretValues;
  /** The caller's own secret values among `secrets` (kept sealed for Run again). */
  own?: SecretValues;
  requestId: string;
  origin: CallOrigin;
  rerunOfId?: string | null;
  parentCallId?: string | null;
  /** Whose OAuth credential the session runs with (`credentialUsed`); null when none was used. */
  credential: Awaited<ReturnType<typeof credentialUsed>> | null;
  sentInvalid: boolean;
  /** The host that made the call ("name version"), for gateway calls. */
  client: string | null;
  startedAt: Date;
  /** The rule that refused or held the call (lib/domains/policies). */
  policyRuleId?: string | null;
  /** Calls through a virtual server: its name. */
  virtualServer?: string | null;
  /** The call's trace (lib/core/telemetry); else the active span's, else a fresh id. */
  traceId?: string;
}

/** The one builder of a call's pending row: what the journal writes before the request leaves. */
export function pendingCall(call: CallRequestRow): PendingCall {
  const { credential } = call;
  return {
    id: crypto.randomUUID(),
    workspaceId: call.workspaceId,
    serverId: call.serverId,
    sessionId: call.sessionId,
    userId: call.userId,
    userName: call.userName,
    method: call.method,
    ...recordedRequest({ name: call.name, params: call.params, secrets: call.secrets, own: call.own }),
    requestId: call.requestId,
    traceId: call.traceId ?? activeTraceId() ?? crypto.randomBytes(16).toString("hex"),
    rerunOfId: call.rerunOfId ?? null,
    origin: call.origin,
    parentCallId: call.parentCallId ?? null,
    credentialMode: credential?.credentialMode ?? null,
    credentialUserId: credential?.credentialUserId ?? null,
    credentialUserName: credential?.credentialUserName ?? null,
    startedAt: call.startedAt,
    requestSize: Buffer.byteLength(JSON.stringify(call.params)),
    instanceId: instanceId(),
    sentInvalid: call.sentInvalid,
    client: call.client,
    policyRuleId: call.policyRuleId ?? null,
    virtualServer: call.virtualServer ?? null,
  };
}

/** How a call ended: the server's result (`isError` inside it is data), or a status with its error. */
export interface CallOutcome {
  status: CallStatus;
  result?: Record<string, unknown>;
  error?: CallError;
}

/**
 * The one builder of a call's completion, with what it recorded masked by `secrets` (asked again
 * at the end: a token refreshed meanwhile is one too). `timing`: where its time went (./timing.ts).
 */
export function callCompletion({ outcome, secrets, startedAt, durationMs, timing = null }: { outcome: CallOutcome; secrets: SecretValues; startedAt: Date; durationMs: number; timing?: string | null }): CallCompletion {
  const result = outcome.result === undefined ? null : JSON.stringify(outcome.result);
  return {
    status: outcome.status,
    isError: outcome.result?.isError === true,
    result: recordedText(result, secrets),
    error: outcome.error ? recordedText(JSON.stringify(outcome.error), secrets) : null,
    finishedAt: new Date(startedAt.getTime() + durationMs),
    durationMs: Math.round(durationMs * 1000) / 1000,
    resultSize: result === null ? null : Buffer.byteLength(result),
    timing,
  };
}
