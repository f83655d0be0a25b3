import { z } from "zod";
import { CALL_METHODS, CALL_ORIGINS, CALL_STATUSES, EXPORT_FORMATS } from "./index";

const CallStatusSchema = z.enum(CALL_STATUSES);

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
  /** The call this one sends again (a replay from the traffic panel). */
  rerunOf: z.string().min(1).max(100).optional(),
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
   * Who asked: "user", "app", "card", "subscription", "gateway", "collection", "monitor" (see CallOrigin), or "any".
   * Without it, automatic work (subscription re-reads, monitors' runs) is left out.
   */
  origin: z.enum([...CALL_ORIGINS, "any"]).optional(),
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

/** GET /api/v1/calls/export: the history filters, the whole result in one file. */
export const ExportCallsQuerySchema = ListCallsQuerySchema.omit({ cursor: true, limit: true }).extend({
  format: z.enum(EXPORT_FORMATS).default("ndjson"),
});
export type ExportCallsQuery = z.infer<typeof ExportCallsQuerySchema>;
