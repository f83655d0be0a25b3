import type { Client } from "@modelcontextprotocol/client";
import { bindTaskReceiver, type TaskReceiverCallback } from "@modelcontextprotocol/ext-tasks/receiver";
import type { ServerRequest } from "./types";

/** The 2025-11-25 `tasks` client capability the receiver below serves (what `bindTaskReceiver` reports). */
export const TASK_REQUEST_CAPABILITIES = {
  list: {},
  cancel: {},
  requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
};

// A task's record outlives its answer so the server can still read tasks/result; it is freed after
// this long from creation, which is past the longest wait for a person (lib/domains/interactions: 10 min).
const TASK_TTL_MS = 15 * 60_000;

type Answer = (request: ServerRequest, signal: AbortSignal) => Promise<Record<string, unknown>>;

/**
 * Task-augmented `sampling/createMessage` and `elicitation/create` (2025-11-25 tasks): ext-tasks
 * answers the request at once with a task, serves the server's tasks/get, tasks/result, tasks/list
 * and tasks/cancel, and runs `answer` with the plain request (`task` dropped), so a person sees the
 * same dialog and a gateway host gets a request it can answer without task support. The answer is
 * abandoned when the task is cancelled or expires, or when `scope` (taken as the request arrives:
 * the calls it belongs to) aborts. Plain requests keep the handlers registered before. Returns the
 * closer: it cancels what is still open and frees every task; call it when the session ends.
 */
export function bindTaskRequests(client: Client, answer: Answer, scope?: () => AbortSignal): () => void {
  const run: TaskReceiverCallback = async (request, context) => {
    const { task: _task, ...params } = request.params;
    const signal = scope ? AbortSignal.any([context.signal, scope()]) : context.signal;
    return (await answer({ method: request.method, params }, signal)) as Awaited<ReturnType<TaskReceiverCallback>>;
  };
  const binding = bindTaskReceiver(client, {
    methods: { "sampling/createMessage": true, "elicitation/create": true },
    sampling: run,
    elicitation: run,
    ttlMs: TASK_TTL_MS,
    // A failed answer already reads as the task's `failed` status; a late one has nobody to tell.
    onError: () => undefined,
  });
  return () => binding.close();
}
