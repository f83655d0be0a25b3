import type { Call } from "@prisma/client";

/** How a column is stored; `tests/unit/call-columns.test.ts` reads the Prisma type of each. */
export type ColumnType = "text" | "integer" | "double" | "boolean" | "timestamp";

/**
 * Every column of the `call` table: its name and how it is stored, by Prisma field. The journal's
 * statements (lib/domains/calls/journal.ts) are built from it for both databases. `satisfies` makes a field
 * added to the model a compile error here; the unit test compares names and types with both schemas.
 */
export const CALL_COLUMNS = {
  id: { column: "id", type: "text" },
  workspaceId: { column: "workspace_id", type: "text" },
  serverId: { column: "server_id", type: "text" },
  sessionId: { column: "session_id", type: "text" },
  userId: { column: "user_id", type: "text" },
  userName: { column: "user_name", type: "text" },
  method: { column: "method", type: "text" },
  name: { column: "name", type: "text" },
  params: { column: "params", type: "text" },
  paramsSecret: { column: "params_secret", type: "text" },
  result: { column: "result", type: "text" },
  error: { column: "error", type: "text" },
  status: { column: "status", type: "text" },
  isError: { column: "is_error", type: "boolean" },
  requestId: { column: "request_id", type: "text" },
  traceId: { column: "trace_id", type: "text" },
  rerunOfId: { column: "rerun_of_id", type: "text" },
  origin: { column: "origin", type: "text" },
  parentCallId: { column: "parent_call_id", type: "text" },
  credentialMode: { column: "credential_mode", type: "text" },
  credentialUserId: { column: "credential_user_id", type: "text" },
  credentialUserName: { column: "credential_user_name", type: "text" },
  startedAt: { column: "started_at", type: "timestamp" },
  finishedAt: { column: "finished_at", type: "timestamp" },
  durationMs: { column: "duration_ms", type: "double" },
  requestSize: { column: "request_size", type: "integer" },
  resultSize: { column: "result_size", type: "integer" },
  progress: { column: "progress", type: "text" },
  taskId: { column: "task_id", type: "text" },
  taskStatus: { column: "task_status", type: "text" },
  taskStatusMessage: { column: "task_status_message", type: "text" },
  taskPollIntervalMs: { column: "task_poll_interval_ms", type: "integer" },
  taskUpdatedAt: { column: "task_updated_at", type: "timestamp" },
  instanceId: { column: "instance_id", type: "text" },
  sentInvalid: { column: "sent_invalid", type: "boolean" },
  client: { column: "client", type: "text" },
  timing: { column: "timing", type: "text" },
  policyRuleId: { column: "policy_rule_id", type: "text" },
  virtualServer: { column: "virtual_server", type: "text" },
} as const satisfies { [F in keyof Call]-?: { column: string; type: ColumnType } };

export type CallField = keyof typeof CALL_COLUMNS;

// What each write sets. A column only the database fills (status's default) is in none of them.

/** Written before the request leaves. */
export const PENDING_FIELDS = [
  "id", "workspaceId", "serverId", "sessionId", "userId", "userName", "method", "name", "params", "paramsSecret",
  "requestId", "traceId", "rerunOfId", "origin", "parentCallId", "credentialMode", "credentialUserId", "credentialUserName",
  "startedAt", "requestSize", "instanceId", "sentInvalid", "client", "policyRuleId", "virtualServer",
] as const satisfies readonly CallField[];

/** What a finished call adds. */
export const COMPLETION_FIELDS = ["status", "isError", "result", "error", "finishedAt", "durationMs", "resultSize", "timing"] as const satisfies readonly CallField[];

/** What the server last said about a call's task. */
export const TASK_FIELDS = ["taskId", "taskStatus", "taskStatusMessage", "taskPollIntervalMs", "taskUpdatedAt"] as const satisfies readonly CallField[];

export const PROGRESS_FIELDS = ["progress"] as const satisfies readonly CallField[];

/** Governance's columns: absent is null (a call no rule decided, not through a virtual server). */
type Governed = "policyRuleId" | "virtualServer";
/** A call as written before its request leaves. */
export type PendingCall = Omit<Pick<Call, (typeof PENDING_FIELDS)[number]>, Governed> & Partial<Pick<Call, Governed>>;
/** What a finished call adds to its row (`timing` left out is null: no stages known). */
export type CallCompletion = Omit<Pick<Call, (typeof COMPLETION_FIELDS)[number]>, "timing"> & { timing?: string | null };
/** A task's state as last reported. */
export type TaskState = Pick<Call, (typeof TASK_FIELDS)[number]>;
