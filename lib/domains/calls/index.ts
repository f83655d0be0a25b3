import type { SignInRequired } from "@/lib/domains/server-oauth";
import type { Stages } from "@/lib/core/timing";
import type { ListCallsQuery } from "./schemas";
export type { CallTool, ReadResource, GetPrompt, ListCallsQuery, ExportCallsQuery } from "./schemas";

/** `denied`: refused by a workspace rule (lib/domains/policies) and never sent; `policyRuleId` names the rule. */
export const CALL_STATUSES = ["pending", "ok", "error", "cancelled", "timeout", "interrupted", "denied"] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** `mock`: a host's call to a mock server (lib/domains/mocks); `replay`: a recorded call sent again (lib/domains/replays); `load-test`: a load test's sampled call (lib/domains/load-tests). */
export const CALL_ORIGINS = ["user", "app", "card", "subscription", "gateway", "collection", "monitor", "mock", "replay", "load-test"] as const;
export type CallOrigin = (typeof CALL_ORIGINS)[number];
/**
 * Work the console does on its own or in bulk (re-reading a subscribed resource that changed, a
 * monitor's runs, a mock answering a host's CI, a load test's sample): hidden from history unless
 * asked for, each kind one view in HISTORY_VIEWS.
 */
export const AUTOMATIC_ORIGINS: readonly CallOrigin[] = ["subscription", "monitor", "mock", "load-test"];
/** History's views by whose work it is: people's (no origin: the default) and each kind of automatic run, one click apart. */
export const HISTORY_VIEWS = [
  { label: "People's work", origin: undefined },
  { label: "Monitors", origin: "monitor" },
  { label: "Mocks", origin: "mock" },
  { label: "Load tests", origin: "load-test" },
] as const satisfies readonly { label: string; origin: CallOrigin | undefined }[];
/** The history filter value that shows every origin, automatic work included. */
export const ANY_ORIGIN = "any";

export const CALL_METHODS = ["tools/call", "resources/read", "prompts/get"] as const;
export type CallMethod = (typeof CALL_METHODS)[number];

export const EXPORT_FORMATS = ["ndjson", "csv"] as const;

/** The columns of the CSV export, in order. */
export const CSV_COLUMNS = ["id", "startedAt", "server", "method", "name", "status", "durationMs", "user", "origin", "arguments", "error"] as const;

/** The error recorded on a call: a JSON-RPC error from the server, or why it never got an answer. */
export interface CallError {
  kind: "protocol" | "timeout" | "cancelled" | "connection" | "validation" | "interrupted" | "offline" | "policy";
  message: string;
  code?: number;
  data?: unknown;
  /** The server needs the caller to sign in (or consent to more scope) before this can work. */
  oauth?: SignInRequired;
}

/** The latest `notifications/progress` of a call; no `total` means indeterminate. */
export interface CallProgress {
  progress: number;
  total?: number;
  message?: string;
}

const TASK_STATUSES = ["working", "input_required", "completed", "failed", "cancelled"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/**
 * A task-augmented call's task. While the task runs the call's `status` stays `pending`; it takes
 * its final status (`ok`, `error`, `cancelled`) when the task ends and its result is stored.
 * Exported for tests/unit/docs-api.test.ts, which looks it up by name against docs/api.md.
 */
export interface CallTask {
  id: string;
  status: TaskStatus;
  statusMessage: string | null;
  pollIntervalMs: number | null;
  updatedAt: string | null;
}

export interface CallDto {
  id: string;
  serverId: string;
  serverName: string | null;
  /** When the call's server was archived (it can be read, not run again), else null. */
  serverArchivedAt: string | null;
  sessionId: string | null;
  userId: string | null;
  userName: string | null;
  method: CallMethod;
  name: string;
  params: unknown;
  result: unknown;
  error: CallError | null;
  status: CallStatus;
  isError: boolean;
  requestId: string;
  traceId: string;
  /** The trace in the operator's tracing tool (SWITCHBOARD_TRACE_LINK), else null. */
  traceUrl: string | null;
  rerunOfId: string | null;
  /** "user" (UI or API), "app" (an MCP App in a result), "card" (a UI card action), "subscription" (a re-read after an update), "gateway" (another MCP host through /mcp), "collection" (a step of a run people started) or "monitor" (a step of a monitor's run). */
  origin: CallOrigin;
  /** Gateway calls: the MCP host that made it ("name version" from its initialize). */
  client: string | null;
  /** Sent although its arguments failed the tool's input schema ("Send anyway"). */
  sentInvalid: boolean;
  /** For app and card calls: the call whose result hosted the app or card. */
  parentCallId: string | null;
  /** Servers with OAuth: whose credential the call ran with; null for servers without OAuth. */
  credential: CallCredential | null;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  requestSize: number;
  resultSize: number | null;
  progress: CallProgress | null;
  task: CallTask | null;
  /** Review (lib/domains/reviews): the call's tags, whether the caller starred it, how many notes it has. */
  tags: string[];
  starred: boolean;
  noteCount: number;
  /** Where the call's time went; null for calls recorded before the console kept it. */
  timing: CallTiming | null;
  /** The workspace rule that refused (status `denied`) or held the call for approval; null when no rule decided. */
  policyRuleId: string | null;
  /** Calls through a virtual server: its name (the call is recorded against the real server and tool). */
  virtualServer: string | null;
}

/**
 * Where a call's time went, in milliseconds (to 0.01), as recorded with its answer: the console's
 * stages (`upstream` is the request to the server; `render` and the completion's own write come
 * after it and are not in it), and upstream split into the network and the server when an
 * estimate of the network is known. The console's share is `totalMs - stages.upstream`.
 */
export interface CallTiming {
  stages: Stages;
  /** From the request's arrival to its answer being recorded. */
  totalMs: number;
  networkMs: number | null;
  serverMs: number | null;
  /** Where the network estimate came from: the session's last ping round trip, the server's own Server-Timing, or none. */
  networkSource: "ping" | "server-timing" | null;
}

/**
 * "member": the caller's own sign-in to the server; "shared": the workspace's, signed in by
 * `userName`; "machine": the console's client credentials (`userId` null, `userName` the client id).
 */
export interface CallCredential {
  mode: "member" | "shared" | "machine";
  userId: string | null;
  userName: string | null;
}

/** A history row: the call without its (possibly huge) params and result, plus short previews. */
export type CallSummary = Omit<CallDto, "params" | "result" | "timing"> & { paramsPreview: string; resultPreview: string | null };

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  /**
   * Present on a history search while many calls wait for the search index (after an import or an
   * upgrade): the newest of them were searched, older ones may be missing until it catches up.
   */
  searchIncomplete?: true;
}

export const callKeys = {
  list: (filters: Partial<ListCallsQuery>) => ["calls", filters] as const,
  detail: (id: string) => ["calls", "detail", id] as const,
  tasks: (serverId: string, sessionId?: string | null) => ["calls", "tasks", serverId, sessionId ?? null] as const,
};
export { csvField, csvRow } from "./csv";
export { curlSnippet, shellQuote, typescriptSnippet, type SnippetCall } from "./snippets";

/** What the call DTO carries about its review: tags, the caller's star, how many notes. */
export interface CallReview {
  tags: string[];
  starred: boolean;
  noteCount: number;
}
