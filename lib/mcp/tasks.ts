import type { Client } from "@modelcontextprotocol/client";
import {
  createTaskSessionFromClient,
  DispatchError,
  JsonRpcResponseError,
  TaskCancellationUnsupportedError,
  type TaskEnabledSession,
  type TaskView,
} from "@modelcontextprotocol/ext-tasks/client";
import { taskId as asTaskId } from "@modelcontextprotocol/ext-tasks/core";
import { McpError } from "./errors";
import { explainError } from "./explain";
import type { TaskInfo, TaskOutcome, TaskStart } from "./types";

// One ext-tasks session per SDK client: the adapter may wrap a client only once, and a
// re-initialised connection gets a new client (and so a new task session).
const sessions = new WeakMap<Client, TaskEnabledSession>();

function taskSession(client: Client): TaskEnabledSession {
  let session = sessions.get(client);
  if (!session) {
    session = createTaskSessionFromClient(client, { endpointId: "switchboard" });
    sessions.set(client, session);
  }
  return session;
}

interface TaskRequestOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * A task-augmented `tools/call` (ext-tasks, generation chosen from the server's capabilities).
 * The execution is handed off at once: the console's poller owns the task from then on, by id.
 * A server that answers without creating a task gives an immediate result.
 */
export async function startToolTask(client: Client, params: { name: string; arguments?: Record<string, unknown> }, opts: TaskRequestOptions): Promise<TaskStart> {
  return guard(async () => {
    const session = taskSession(client);
    const args = (params.arguments ?? {}) as Parameters<TaskEnabledSession["callTool"]>[1];
    const execution = await session.callTool(params.name, args, {
      task: { preference: "require" },
      requestTimeoutMs: opts.timeoutMs,
      signal: opts.signal,
    });
    if (execution.kind === "immediate") {
      const outcome = await execution.result();
      if (outcome.status === "completed") return { kind: "immediate", result: outcome.result as unknown as Record<string, unknown> };
      throw new McpError("protocol", outcome.status === "failed" ? outcome.error.message : "The task was cancelled");
    }
    const taskId = execution.handle.taskId;
    const first = await session.task(taskId, { requestTimeoutMs: opts.timeoutMs }).snapshot(opts.signal).catch(() => null);
    await execution.handoff(() => undefined);
    return { kind: "task", task: first ? toInfo(first) : { taskId, status: "working", statusMessage: null, pollIntervalMs: null } };
  });
}

/** `tasks/get`: the task's current state. */
export function getTask(client: Client, taskId: string, opts: TaskRequestOptions): Promise<TaskInfo> {
  return guard(async () => toInfo(await taskSession(client).task(asTaskId(taskId), { requestTimeoutMs: opts.timeoutMs }).snapshot(opts.signal)));
}

/** `tasks/result` for a task in a terminal state: the tool's result, its failure or its cancellation. */
export function getTaskResult(client: Client, taskId: string, opts: TaskRequestOptions): Promise<TaskOutcome> {
  return guard(async () => {
    const outcome = await taskSession(client).task(asTaskId(taskId), { requestTimeoutMs: opts.timeoutMs }).result({ signal: opts.signal });
    if (outcome.status === "completed") return { status: "completed", result: outcome.result as unknown as Record<string, unknown> };
    if (outcome.status === "failed") return { status: "failed", message: outcome.error.message, code: outcome.error.code, data: outcome.error.data };
    return { status: "cancelled" };
  });
}

/** `tasks/cancel`. Throws an McpError of kind "protocol" when the server cannot cancel tasks. */
export function cancelTask(client: Client, taskId: string, opts: TaskRequestOptions): Promise<void> {
  return guard(() => taskSession(client).task(asTaskId(taskId), { requestTimeoutMs: opts.timeoutMs }).cancel(opts.signal));
}

function toInfo(view: TaskView): TaskInfo {
  return {
    taskId: view.taskId,
    status: view.status,
    statusMessage: view.statusMessage ?? null,
    pollIntervalMs: view.suggestedPollIntervalMs ?? view.pollInterval ?? null,
  };
}

async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof McpError) throw err;
    if (err instanceof JsonRpcResponseError) throw new McpError("protocol", err.message, { code: err.code, data: err.data, cause: err });
    if (err instanceof TaskCancellationUnsupportedError) throw new McpError("protocol", "The server does not offer task cancellation", { cause: err });
    if (err instanceof DispatchError && err.cause !== undefined) throw explainError(err.cause);
    throw explainError(err);
  }
}
