import "server-only";
import { publish } from "@/lib/core/events/server";
import { McpError, type TaskInfo, type ToolDefinition } from "@/lib/mcp/server";
import { SwitchboardError } from "@/lib/core/errors";
import { findServerForWork } from "@/lib/domains/servers/server";
import { getConnection } from "@/lib/domains/sessions/server";
import type { CallError, CallStatus } from "./index";
import * as q from "./queries";
import { recordTaskCompletion, recordTaskState } from "./journal";
import { callSecrets, recordedText, sealedSecrets } from "./redacted";
import { redact, type SecretValues } from "@/lib/core/redaction";
import { piece } from "@/lib/core/runtime";

const DEFAULT_POLL_MS = 1000;
const MIN_POLL_MS = 100;
const MAX_POLL_MS = 30_000;
/** Consecutive failed polls (server away, agent offline) before the call is given up as an error. */
const MAX_FAILURES = 8;
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

interface TaskFollower {
  timer: NodeJS.Timeout | null;
  failures: number;
  busy: boolean;
}

// Task calls being followed, by call id: in the process runtime so that every module graph shares
// one poller and a call is never followed twice.
const followers = () => piece("taskFollowers", () => new Map<string, TaskFollower>());

/**
 * Follows a task-augmented call in the console process until its task ends, then stores the
 * result on the call. Runs whether or not anybody watches; idempotent per call.
 */
export function followTask(callId: string, pollIntervalMs: number | null): void {
  if (followers().has(callId)) return;
  const follower: TaskFollower = { timer: null, failures: 0, busy: false };
  followers().set(callId, follower);
  schedule(callId, follower, pollIntervalMs);
}

/** Polls a followed task now (after a cancel, say) instead of at its next tick. */
export function pollTaskNow(callId: string): void {
  const follower = followers().get(callId);
  if (!follower) return followTask(callId, 0);
  if (follower.timer) clearTimeout(follower.timer);
  schedule(callId, follower, 0);
}

/** Follows the task calls this instance took over from one that is gone (lib/core/instances). */
export function followTasks(callIds: string[]): void {
  for (const id of callIds) followTask(id, 0);
}

function schedule(callId: string, follower: TaskFollower, delayMs: number | null): void {
  const delay = delayMs === 0 ? 0 : Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, delayMs ?? DEFAULT_POLL_MS));
  follower.timer = setTimeout(() => void tick(callId, follower), delay);
  follower.timer.unref?.();
}

async function tick(callId: string, follower: TaskFollower): Promise<void> {
  if (follower.busy) return;
  follower.busy = true;
  let next: number | null | "stop" = "stop";
  try {
    next = await poll(callId);
    follower.failures = 0;
  } catch (err) {
    follower.failures += 1;
    const gone = err instanceof McpError && err.kind === "protocol";
    if (gone || follower.failures >= MAX_FAILURES) {
      const message = gone ? `The server no longer answers for this task: ${err.message}` : `Lost track of the task: ${(err as Error).message}`;
      await finish(callId, "error", { error: { kind: gone ? "protocol" : "connection", message } }).catch(() => undefined);
    } else next = DEFAULT_POLL_MS * 2 ** Math.min(follower.failures, 4);
  } finally {
    follower.busy = false;
  }
  if (next === "stop") followers().delete(callId);
  else schedule(callId, follower, next);
}

/** One tasks/get (and tasks/result once terminal). Returns the next delay, or "stop". */
async function poll(callId: string): Promise<number | null | "stop"> {
  const call = await q.findTaskCall({ id: callId });
  if (!call?.taskId || call.status !== "pending") return "stop";
  const server = await findServerForWork({ workspaceId: call.workspaceId, id: call.serverId });
  if (!server) return "stop";
  if (server.archivedAt) {
    await finish(callId, "error", { error: { kind: "connection", message: `"${server.name}" was archived before its task ended` } });
    return "stop";
  }
  const { connection } = await getConnection({ ...server, actingUserId: call.userId });
  const info = await connection.getTask(call.taskId, { timeoutMs: server.timeoutMs });
  if (info.status !== call.taskStatus || !TERMINAL.has(info.status)) await recordState(call, info);
  if (!TERMINAL.has(info.status)) return info.pollIntervalMs ?? call.taskPollIntervalMs;
  if (info.status === "cancelled") {
    await finish(callId, "cancelled", { error: { kind: "cancelled", message: info.statusMessage ?? "The task was cancelled" } });
    return "stop";
  }
  const outcome = await connection.getTaskResult(call.taskId, { timeoutMs: server.timeoutMs });
  if (outcome.status === "completed") {
    await finish(callId, outcome.result.isError === true ? "error" : "ok", { result: outcome.result });
  } else if (outcome.status === "cancelled") {
    await finish(callId, "cancelled", { error: { kind: "cancelled", message: "The task was cancelled" } });
  } else {
    await finish(callId, "error", { error: { kind: "protocol", message: outcome.message, code: outcome.code, data: outcome.data } });
  }
  return "stop";
}

type TaskCallRow = NonNullable<Awaited<ReturnType<typeof q.findTaskCall>>>;

/** Stores and announces the task's state (the call stays pending until the task ends); secrets in its status message masked. */
export async function recordState(call: Pick<TaskCallRow, "id" | "workspaceId" | "serverId" | "requestId">, info: TaskInfo): Promise<void> {
  const statusMessage = info.statusMessage === null ? null : redact(info.statusMessage, [], { secrets: await taskCallSecrets(call) }).value;
  const state = { taskId: info.taskId, taskStatus: info.status, taskStatusMessage: statusMessage, taskPollIntervalMs: info.pollIntervalMs, taskUpdatedAt: new Date() };
  await recordTaskState(call.id, state);
  announce({ ...call, ...state, status: "pending" });
}

async function finish(callId: string, status: CallStatus, outcome: { result?: Record<string, unknown>; error?: CallError }): Promise<void> {
  const current = await q.findTaskCall({ id: callId });
  if (!current || current.status !== "pending") return;
  const finishedAt = new Date();
  const resultText = outcome.result === undefined ? null : JSON.stringify(outcome.result);
  const secrets = await taskCallSecrets(current);
  const taskStatus = status === "ok" || (status === "error" && outcome.result) ? "completed" : status === "cancelled" ? "cancelled" : "failed";
  await recordTaskCompletion(callId, {
    status,
    isError: outcome.result?.isError === true,
    result: recordedText(resultText, secrets),
    error: outcome.error ? recordedText(JSON.stringify(outcome.error), secrets) : null,
    finishedAt,
    durationMs: finishedAt.getTime() - current.startedAt.getTime(),
    resultSize: resultText === null ? null : Buffer.byteLength(resultText),
    timing: null,
    taskStatus,
    taskUpdatedAt: finishedAt,
  });
  announce({ ...current, taskStatus, status });
}

/** What a task call's record must not show: the server's stored secret values and the call's own (sealed with its request). */
async function taskCallSecrets(call: { id: string; workspaceId: string; serverId: string }): Promise<SecretValues> {
  const own = sealedSecrets(await q.findParamsSecret({ workspaceId: call.workspaceId, id: call.id }));
  return callSecrets({ workspaceId: call.workspaceId, serverId: call.serverId, own });
}

function announce(row: { id: string; workspaceId: string; serverId: string; requestId: string; taskId: string | null; taskStatus: string | null; taskStatusMessage: string | null; status: string }): void {
  if (!row.taskId) return;
  publish(row.workspaceId, {
    type: "task",
    serverId: row.serverId,
    callId: row.id,
    requestId: row.requestId,
    taskId: row.taskId,
    status: row.taskStatus ?? "working",
    statusMessage: row.taskStatusMessage,
    callStatus: row.status,
  });
}

/** `execution.taskSupport`: "required" always runs as a task, "optional" when asked, otherwise never. */
export function runsAsTask(tool: ToolDefinition | undefined, asked: boolean | undefined): boolean {
  const support = (tool?.execution as { taskSupport?: string } | undefined)?.taskSupport;
  if (support === "required") return true;
  if (support === "optional") return asked === true;
  if (asked) throw new SwitchboardError("unprocessable", "This tool does not support running as a task");
  return false;
}
