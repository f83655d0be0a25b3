import "server-only";
import crypto from "node:crypto";
import type { Principal } from "@/lib/core/access";
import { ServedElsewhere, SwitchboardError } from "@/lib/core/errors";
import { publish } from "@/lib/core/events/server";
import { toCallError, type Progress } from "@/lib/mcp/server";
import { getServerForCall } from "@/lib/domains/servers/server";
import { getConnection, lastPingMs, serverFailure, upstream } from "@/lib/domains/sessions/server";
import { Timing } from "@/lib/core/timing";
import { recordedTiming } from "./timing";
import { isSignInRequired } from "@/lib/domains/server-oauth";
import { credentialUsed } from "@/lib/domains/server-oauth/server";
import type { SecretValues } from "@/lib/core/redaction";
import { holdSessionSecrets } from "@/lib/core/redaction/server";
import { instanceId } from "@/lib/core/instances";
import { instanceUrl } from "@/lib/core/cluster";
import type { CallDto, CallMethod, CallOrigin } from "./index";
import { completeDurably } from "./complete";
import { refuseOwnOutage, unsentOnOutage } from "./outage";
import { callSecrets, recordedText } from "./redacted";
import { recordFailedCall, recordPending, recordProgress } from "./journal";
import { callCompletion, pendingCall, type CallOutcome } from "./row";
import { completedRow, toCallDto } from "./dto";
import { getCall } from "./history";
import * as q from "./queries";
import { takeCallRoom } from "./quota";
import { followTask, pollTaskNow, recordState, runsAsTask } from "./tasks";
import { awaitApproval, decideCall, refuseCall, ruleOf } from "./govern";
import { validateArguments } from "@/lib/core/json-schema";
import { piece } from "@/lib/core/runtime";
import { startCallSpan, type CallSpan } from "@/lib/core/telemetry";

interface CallRequest {
  serverId: string;
  method: CallMethod;
  name: string;
  params: Record<string, unknown>;
  timeoutMs?: number;
  maxTotalTimeoutMs?: number;
  requestId?: string;
  /** Ask for a task-augmented call (tools with taskSupport "optional"). */
  task?: boolean;
  /** Send even when the arguments fail the tool's input schema (recorded as `sentInvalid`). */
  skipValidation?: boolean;
  rerunOfId?: string;
  origin?: CallOrigin;
  parentCallId?: string;
  /** Secret values the caller put in the request (a collection environment's secrets): masked in history and traffic like the server's own. */
  secrets?: SecretValues;
  /** The API request's timing (its Server-Timing); a call made otherwise times itself from here. */
  timing?: Timing;
}

// Running calls by workspace and request id, so that a Cancel can reach them.
const running = () => piece("runningCalls", () => new Map<string, AbortController>());

/**
 * Sends one request on the user's behalf and records it: the row is written as `pending` before
 * the request leaves and completed after. MCP-level failures are data on the call, not throws.
 */
export async function runCall(principal: Principal, req: CallRequest): Promise<CallDto> {
  const span = startCallSpan({ method: req.method, name: req.name, origin: req.origin ?? "user" });
  return span.run(() => sendCall(principal, req, span)).catch((err: unknown) => {
    span.fail(err);
    throw err;
  });
}

async function sendCall(principal: Principal, req: CallRequest, span: CallSpan): Promise<CallDto> {
  // Each stage runs to where the next begins, so the stages add up to the call's time.
  const timing = req.timing ?? new Timing();
  let at = performance.now();
  const server = await getServerForCall(principal, req.serverId);
  if (req.parentCallId) {
    const parent = await q.findCall({ workspaceId: principal.workspaceId, id: req.parentCallId });
    if (!parent || parent.serverId !== server.id) {
      throw new SwitchboardError("unprocessable", "parentCallId must name a call on the same server in this workspace");
    }
  }
  if (req.rerunOfId) {
    const source = await q.findCall({ workspaceId: principal.workspaceId, id: req.rerunOfId });
    if (!source || source.serverId !== server.id || source.method !== req.method) {
      throw new SwitchboardError("unprocessable", "rerunOf must name a call of the same method on the same server in this workspace");
    }
  }
  const requestId = req.requestId ?? crypto.randomUUID();
  if (req.requestId && (await q.findCallByRequestId({ workspaceId: principal.workspaceId, requestId }))) {
    throw new SwitchboardError("conflict", "A call with this requestId exists already; a re-run is a new request");
  }
  await takeCallRoom(principal.workspaceId);
  const decision = await decideCall(principal, { ...req, serverId: server.id });
  // History shows the name and arguments with secrets masked; the original is kept, sealed, for Run again.
  const where = { workspaceId: principal.workspaceId, serverId: server.id, row: server, own: req.secrets };
  const secrets = await callSecrets(where);
  const asked = {
    workspaceId: principal.workspaceId,
    serverId: server.id,
    userId: principal.userId,
    userName: principal.userName,
    method: req.method,
    name: req.name,
    params: req.params,
    secrets,
    own: req.secrets,
    requestId,
    rerunOfId: req.rerunOfId,
    origin: req.origin ?? "user",
    parentCallId: req.parentCallId,
    client: null,
    policyRuleId: ruleOf(decision),
    traceId: span.traceId,
  };
  if (decision.effect === "deny") await refuseCall(asked, decision);

  at = timing.since("session", at);
  let live;
  try {
    live = await getConnection(server);
  } catch (err) {
    at = timing.since("connect", at);
    // Not a failed call: nothing was sent; the person must sign in to the server first.
    if (err instanceof SwitchboardError && isSignInRequired(err.details)) throw err;
    // The agent is connected to another instance: the whole request is forwarded there.
    if (err instanceof ServedElsewhere) throw err;
    unsentOnOutage(err);
    const { status, error } = toCallError(serverFailure(server, err));
    const now = new Date();
    const call = pendingCall({ ...asked, sessionId: null, credential: null, sentInvalid: false, startedAt: now });
    const completion = callCompletion({ outcome: { status, error }, secrets, startedAt: now, durationMs: 0, timing: recordedTiming(timing) });
    await recordFailedCall({ ...call, ...completion });
    span.identify(call);
    span.end(completion);
    timing.since("journal", at);
    return toCallDto(completedRow(call, completion, { name: server.name, lastProgress: null }));
  }

  at = timing.since("connect", at);
  holdSessionSecrets({ sessionId: live.sessionId, secrets: req.secrets });
  let asTask = false;
  let sentInvalid = false;
  if (req.method === "tools/call") {
    const tool = (await live.connection.tools().catch(() => [])).find((t) => t.name === req.name);
    const errors = tool ? validateArguments(tool.inputSchema, req.params.arguments ?? {}) : [];
    at = timing.since("validation", at);
    if (errors.length && !req.skipValidation) {
      throw new SwitchboardError("unprocessable", `Arguments do not match the tool's input schema: ${errors[0]!.path} ${errors[0]!.message}`, { errors });
    }
    sentInvalid = errors.length > 0;
    asTask = runsAsTask(tool, req.task);
  }

  const startedAt = new Date();
  const credential = await credentialUsed(server);
  at = timing.since("session", at);
  const pending = pendingCall({ ...asked, sessionId: live.sessionId, credential, sentInvalid, startedAt });
  await recordPending(pending);
  span.identify(pending);
  at = timing.since("journal", at);
  const key = `${principal.workspaceId}:${requestId}`;
  const controller = new AbortController();
  running().set(key, controller);
  if (decision.effect === "approve") {
    await awaitApproval({ principal, decision, pending, serverName: server.name, secrets, signal: controller.signal }).catch((err: unknown) => {
      running().delete(key);
      throw err;
    });
  }
  const t0 = performance.now();
  const timeoutMs = req.timeoutMs ?? server.timeoutMs;
  let progressWrite: Promise<unknown> = Promise.resolve();
  let lastProgress: Progress | null = null;
  const onProgress = (p: Progress) => {
    const shown = recordedText(JSON.stringify(p), secrets);
    lastProgress = JSON.parse(shown) as Progress;
    publish(principal.workspaceId, { type: "progress", serverId: server.id, callId: pending.id, requestId, ...lastProgress });
    progressWrite = progressWrite.then(() => recordProgress(pending.id, shown)).catch(() => undefined);
  };
  const options = { timeoutMs, signal: controller.signal, onProgress, maxTotalTimeoutMs: req.maxTotalTimeoutMs ?? server.maxTotalTimeoutMs ?? undefined };
  let outcome: CallOutcome;
  try {
    if (asTask) {
      const started = await live.connection.startToolTask(req.params as { name: string }, options);
      if (started.kind === "task") {
        const call = { id: pending.id, workspaceId: principal.workspaceId, serverId: server.id, requestId };
        await recordState(call, started.task);
        followTask(pending.id, started.task.pollIntervalMs);
        span.end({ status: "task", isError: false, error: null, result: null });
        return getCall(principal, pending.id);
      }
      outcome = { status: started.result.isError === true ? "error" : "ok", result: started.result };
    } else {
      const result = await live.connection.request(req.method, req.params, options);
      outcome = { status: result.isError === true ? "error" : "ok", result };
    }
  } catch (err) {
    await refuseOwnOutage({ id: pending.id, err, startedAt });
    outcome = toCallError(serverFailure(server, err));
  } finally {
    running().delete(key);
  }
  at = timing.since("upstream", at);
  await progressWrite;
  at = timing.since("journal", at);
  const durationMs = performance.now() - t0;
  // Asked again: a token refreshed during the call is a secret value too (a failed read keeps the first answer).
  const secretsNow = await callSecrets(where).catch(() => secrets);
  at = timing.since("session", at);
  const completion = callCompletion({ outcome, secrets: secretsNow, startedAt, durationMs, timing: recordedTiming(timing, { pingMs: lastPingMs(live.sessionId) }) });
  await completeDurably(pending.id, completion);
  span.end(completion);
  at = timing.since("journal", at);
  const dto = toCallDto(completedRow(pending, completion, { name: server.name, lastProgress }));
  timing.since("render", at);
  return dto;
}

/**
 * Cancels a running call by its requestId: aborts the request in flight (the SDK sends the
 * era's cancellation), or sends `tasks/cancel` for a task call whose task is still running.
 */
export async function cancelCall(principal: Principal, requestId: string): Promise<boolean> {
  const controller = running().get(`${principal.workspaceId}:${requestId}`);
  if (controller) {
    controller.abort(new Error("Cancelled by the user"));
    return true;
  }
  const owner = (await q.findCallByRequestId({ workspaceId: principal.workspaceId, requestId }))?.instanceId;
  // Running on another live instance (its agent is connected there, or a balancer sent it there).
  if (owner && owner !== instanceId() && instanceUrl(owner)) throw new ServedElsewhere(owner, "The call");
  const task = await q.findPendingTaskCallByRequestId({ workspaceId: principal.workspaceId, requestId });
  if (!task) return false;
  await cancelTaskCall(principal, task.id);
  return true;
}

/** `tasks/cancel` for a task call; the poller records the outcome. 409 if the task already ended. */
export async function cancelTaskCall(principal: Principal, id: string): Promise<CallDto> {
  const call = await getCall(principal, id);
  if (!call.task) throw new SwitchboardError("bad_request", "This call is not a task");
  if (call.status !== "pending") throw new SwitchboardError("conflict", `The task has ended (${call.task.status})`);
  // The instance following the task cancels it (and polls for the outcome): never two pollers.
  const owner = (await q.findCall({ workspaceId: principal.workspaceId, id }))?.instanceId;
  if (owner && owner !== instanceId() && instanceUrl(owner)) throw new ServedElsewhere(owner, "The task call");
  const server = await getServerForCall(principal, call.serverId);
  const { connection } = await getConnection(server);
  await upstream(server, () => connection.cancelTask(call.task!.id, { timeoutMs: server.timeoutMs }));
  pollTaskNow(id);
  return getCall(principal, id);
}
