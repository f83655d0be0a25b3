import { z } from "zod";
import { ListCallsQuerySchema } from "@/lib/domains/calls/schemas";
import { MAX_REPLAY_CALLS } from "./index";

// RFC 6901: "/"-separated tokens, "~" only as "~0" or "~1". The whole answer ("") is not an ignore path.
const POINTER = /^(\/([^~/]|~[01])*)+$/;

/** A JSON pointer into the compared answer (`/result/...` or `/error/...`); a `*` token matches any key or index. */
export const IgnorePointerSchema = z
  .string()
  .max(1000)
  .refine((p) => POINTER.test(p), { message: 'Not a JSON pointer (RFC 6901): it starts with "/", and "~" is written "~0", "/" inside a key "~1"' });

const Id = z.string().trim().min(1).max(200);

/** The history filters (GET /api/v1/calls without its paging). */
export const ReplayFilterSchema = ListCallsQuerySchema.omit({ cursor: true, limit: true }).strict();

/** POST /api/v1/replays: exactly one of callIds, filter, mockId. */
export const StartReplaySchema = z
  .object({
    callIds: z.array(Id).min(1, "tick at least one call").max(MAX_REPLAY_CALLS, `at most ${MAX_REPLAY_CALLS} calls in one replay`).optional(),
    filter: ReplayFilterSchema.optional(),
    mockId: Id.optional(),
    serverId: Id,
    ignore: z.array(IgnorePointerSchema).max(100).default([]),
  })
  .strict()
  .refine((b) => [b.callIds, b.filter, b.mockId].filter((v) => v !== undefined).length === 1, {
    message: "Give exactly one of callIds, filter or mockId: the calls to send again",
    path: ["callIds"],
  });
export type StartReplay = z.infer<typeof StartReplaySchema>;

/** GET /api/v1/replays */
export const ListReplaysQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
export type ListReplaysQuery = z.infer<typeof ListReplaysQuerySchema>;

/** GET /api/v1/replays/:id */
export const ReplayQuerySchema = z.object({ format: z.enum(["json", "junit"]).default("json") });
