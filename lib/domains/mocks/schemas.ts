import { z } from "zod";
import { ListCallsQuerySchema } from "@/lib/domains/calls/schemas";
import { pointersProblem } from "./engine";
import { MAX_MOCK_CALLS, MOCK_FORMAT, MOCK_MATCHES, MOCK_METHODS } from "./index";

// A mock's name is the last segment of its endpoint's path.
const NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const Name = z
  .string()
  .max(1000)
  .refine((name) => NAME.test(name) && name !== "." && name !== "..", { message: 'the mock\'s name is a path segment: 1 to 100 of A-Z a-z 0-9 _ - . (not "." or "..")' });

const Ignore = z
  .array(z.string().max(1000))
  .max(100)
  .superRefine((pointers, ctx) => {
    const problem = pointersProblem(pointers);
    if (problem) ctx.addIssue({ code: "custom", path: [problem.index], message: problem.message });
  });

/** POST /api/v1/mocks: exactly one selection (calls, a collection run, a session, or history filters). */
export const CreateMockSchema = z
  .object({
    name: Name,
    callIds: z.array(z.string().min(1).max(100)).min(1).max(MAX_MOCK_CALLS).optional(),
    runId: z.string().min(1).max(100).optional(),
    sessionId: z.string().min(1).max(100).optional(),
    filter: ListCallsQuerySchema.omit({ cursor: true, limit: true }).optional(),
    match: z.enum(MOCK_MATCHES).default("exact"),
    ignore: Ignore.default([]),
    latency: z.boolean().default(false),
  })
  .refine((body) => [body.callIds, body.runId, body.sessionId, body.filter].filter((s) => s !== undefined).length === 1, {
    message: "Name exactly one selection: callIds, runId, sessionId or filter",
  });
export type CreateMock = z.infer<typeof CreateMockSchema>;

/** PATCH /api/v1/mocks/:id */
export const UpdateMockSchema = z.object({ name: Name.optional(), match: z.enum(MOCK_MATCHES).optional(), ignore: Ignore.optional(), latency: z.boolean().optional() });
export type UpdateMock = z.infer<typeof UpdateMockSchema>;

const Json = z.record(z.string(), z.unknown());

/** An exported mock file as `switchboard mock serve` reads it. */
export const MockFileSchema = z.object({
  format: z.literal(MOCK_FORMAT),
  name: z.string().max(1000),
  source: z.object({ serverId: z.string().nullable(), serverName: z.string() }).default({ serverId: null, serverName: "" }),
  serverInfo: z.looseObject({ name: z.string(), version: z.string() }),
  capabilities: Json.default({}),
  instructions: z.string().optional(),
  tools: z.array(Json).default([]),
  prompts: z.array(Json).default([]),
  resources: z.array(Json).default([]),
  resourceTemplates: z.array(Json).default([]),
  match: z.enum(MOCK_MATCHES).default("exact"),
  ignore: Ignore.default([]),
  latency: z.boolean().default(false),
  recordings: z.array(
    z.object({
      method: z.enum(MOCK_METHODS),
      name: z.string(),
      arguments: Json.nullable().default(null),
      result: Json.optional(),
      error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
      durationMs: z.number().nullable().default(null),
      callId: z.string().optional(),
    }),
  ),
});
