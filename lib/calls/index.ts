import type { SignInRequired } from "@/lib/oauth";
import { z } from "zod";

export const CALL_STATUSES = ["pending", "ok", "error", "cancelled", "timeout", "interrupted"] as const;
export const CallStatusSchema = z.enum(CALL_STATUSES);
export type CallStatus = z.infer<typeof CallStatusSchema>;

export const CALL_ORIGINS = ["user", "app", "card", "subscription", "gateway"] as const;
export type CallOrigin = (typeof CALL_ORIGINS)[number];
/** Work the console does on its own (re-reading a subscribed resource that changed): hidden from history unless asked for. */
export const AUTOMATIC_ORIGINS: readonly CallOrigin[] = ["subscription"];
/** The history filter value that shows every origin, automatic work included. */
export const ANY_ORIGIN = "any";

export const CALL_METHODS = ["tools/call", "resources/read", "prompts/get"] as const;
export type CallMethod = (typeof CALL_METHODS)[number];

const TimeoutSchema = z.number().int().min(100).max(3_600_000).optional();
/** Optional client-chosen id; it doubles as an idempotency key and lets the client cancel. */
const RequestIdSchema = z.string().min(8).max(100).regex(/^[\w.:-]+$/).optional();

export const CallToolSchema = z
  .object({
    name: z.string().min(1).max(500),
    arguments: z.record(z.string(), z.unknown()).default({}),
    timeoutMs: TimeoutSchema,
    /** Hard cap when progress keeps resetting the timeout (default: the server's, else 10 × timeout). */
    maxTotalTimeoutMs: TimeoutSchema,
    requestId: RequestIdSchema,
    /** Run as a task (`execution.taskSupport` "optional"); "required" tools always are, others never. */
    task: z.boolean().optional(),
    /** "Send anyway": send arguments that fail the tool's input schema; the call is marked `sentInvalid`. */
    skipValidation: z.boolean().optional(),
    /** "card": the call comes from a UI card action in the result of `parentCallId`. */
    origin: z.enum(["user", "card"]).optional(),
    parentCallId: z.string().min(1).max(100).optional(),
    /** The call whose arguments were edited into this one ("Run again with edited arguments"). */
    rerunOf: z.string().min(1).max(100).optional(),
  })
  .refine((body) => (body.origin === "card") === (body.parentCallId !== undefined), {
    message: 'origin "card" and parentCallId go together',
    path: ["parentCallId"],
  });
export type CallTool = z.infer<typeof CallToolSchema>;

export const ReadResourceSchema = z.object({
  uri: z.string().min(1).max(10_000),
  timeoutMs: TimeoutSchema,
  requestId: RequestIdSchema,
  /** "subscription": the console reads it again because the server said it changed (automatic work). */
  origin: z.enum(["user", "subscription"]).optional(),
});
export type ReadResource = z.infer<typeof ReadResourceSchema>;

export const GetPromptSchema = z.object({
  name: z.string().min(1).max(500),
  arguments: z.record(z.string(), z.string()).default({}),
  timeoutMs: TimeoutSchema,
  requestId: RequestIdSchema,
  /** The call whose arguments were edited into this one. */
  rerunOf: z.string().min(1).max(100).optional(),
});
export type GetPrompt = z.infer<typeof GetPromptSchema>;

export const CancelCallSchema = z.object({ requestId: z.string().min(1).max(100) });

export const ListTasksQuerySchema = z.object({ sessionId: z.string().max(100).optional() });

export const ListCallsQuerySchema = z.object({
  serverId: z.string().optional(),
  method: z.enum(CALL_METHODS).optional(),
  name: z.string().max(500).optional(),
  status: CallStatusSchema.optional(),
  userId: z.string().optional(),
  /**
   * Who asked: "user", "app", "card", "subscription", "gateway" (see CallOrigin), or "any". Without it,
   * automatic work (subscription re-reads) is left out.
   */
  origin: z.string().min(1).max(40).optional(),
  q: z.string().max(500).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /** Only calls with this tag (compared after normalising: trimmed, lower-case). */
  tag: z.string().trim().toLowerCase().min(1).max(40).optional(),
  /** "1": only calls the caller starred. */
  starred: z.enum(["1", "true"]).optional(),
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ListCallsQuery = z.infer<typeof ListCallsQuerySchema>;

export const EXPORT_FORMATS = ["ndjson", "csv"] as const;
/** GET /api/v1/calls/export: the history filters, the whole result in one file. */
export const ExportCallsQuerySchema = ListCallsQuerySchema.omit({ cursor: true, limit: true }).extend({
  format: z.enum(EXPORT_FORMATS).default("ndjson"),
});
export type ExportCallsQuery = z.infer<typeof ExportCallsQuerySchema>;

/** The columns of the CSV export, in order. */
export const CSV_COLUMNS = ["id", "startedAt", "server", "method", "name", "status", "durationMs", "user", "origin", "arguments", "error"] as const;

/** The error recorded on a call: a JSON-RPC error from the server, or why it never got an answer. */
export interface CallError {
  kind: "protocol" | "timeout" | "cancelled" | "connection" | "validation" | "interrupted" | "offline";
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

export const TASK_STATUSES = ["working", "input_required", "completed", "failed", "cancelled"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/**
 * A task-augmented call's task. While the task runs the call's `status` stays `pending`; it takes
 * its final status (`ok`, `error`, `cancelled`) when the task ends and its result is stored.
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
  rerunOfId: string | null;
  /** "user" (UI or API), "app" (an MCP App in a result), "card" (a UI card action), "subscription" (a re-read after an update) or "gateway" (another MCP host through /mcp). */
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
  /** Review (lib/reviews): the call's tags, whether the caller starred it, how many notes it has. */
  tags: string[];
  starred: boolean;
  noteCount: number;
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
export type CallSummary = Omit<CallDto, "params" | "result"> & { paramsPreview: string; resultPreview: string | null };

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export const callKeys = {
  list: (filters: Partial<ListCallsQuery>) => ["calls", filters] as const,
  detail: (id: string) => ["calls", "detail", id] as const,
  tasks: (serverId: string, sessionId?: string | null) => ["calls", "tasks", serverId, sessionId ?? null] as const,
};
export { csvField, csvRow } from "./csv";
export { apiBodyFor, curlSnippet, shellQuote, typescriptSnippet, type SnippetCall } from "./snippets";

/** What the call DTO carries about its review: tags, the caller's star, how many notes. */
export interface CallReview {
  tags: string[];
  starred: boolean;
  noteCount: number;
}
