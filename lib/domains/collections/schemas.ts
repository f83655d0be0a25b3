import { z } from "zod";
import { checkAssertions } from "./assertions";
import { RUN_ORIGINS, STEP_METHODS, type Assertion } from "./index";

export const MAX_STEPS = 500;
const Name = z.string().trim().min(1, "A name is required").max(200);
const Json = z.record(z.string(), z.unknown());

const AssertionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("status"), equals: z.enum(["ok", "error", "isError"]) }),
  z.object({ kind: z.literal("json"), path: z.string().max(1000), equals: z.unknown().optional(), contains: z.unknown().optional(), matches: z.string().max(1000).optional() }),
  z.object({ kind: z.literal("schema"), schema: Json.optional() }),
  z.object({ kind: z.literal("duration"), maxMs: z.number().finite().min(0) }),
  z.object({ kind: z.literal("snapshot"), ignore: z.array(z.string().max(1000)).max(100).optional(), expected: z.unknown().optional() }),
  z.object({ kind: z.literal("lint"), maxTokens: z.number().int().min(0).max(100_000_000).optional(), failOn: z.enum(["error", "warning"]).optional() }),
]);

const AssertListSchema = z
  .array(AssertionSchema)
  .max(50)
  .superRefine((assert, ctx) => {
    for (const problem of checkAssertions(assert as Assertion[])) ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
  });

/** One step as a body gives it; `id` is generated when absent. */
export const StepInputSchema = z
  .object({
    id: z.string().trim().min(1).max(100).regex(/^[A-Za-z0-9_.-]+$/, "A step id holds letters, digits and - _ . only").optional(),
    label: z.string().trim().max(200).optional(),
    serverId: z.string().trim().min(1, "serverId is required").max(200),
    method: z.enum(STEP_METHODS),
    name: z.string().max(500).optional(),
    uri: z.string().max(4000).optional(),
    arguments: Json.optional(),
    assert: AssertListSchema.optional(),
  })
  .superRefine((step, ctx) => {
    if ((step.method === "tools/call" || step.method === "prompts/get") && !step.name) ctx.addIssue({ code: "custom", path: ["name"], message: `${step.method} needs a name` });
    if (step.method === "resources/read" && !step.uri) ctx.addIssue({ code: "custom", path: ["uri"], message: "resources/read needs a uri" });
  });
export type StepInput = z.infer<typeof StepInputSchema>;

const StepsSchema = z
  .array(StepInputSchema)
  .max(MAX_STEPS, `A collection has at most ${MAX_STEPS} steps`)
  .superRefine((steps, ctx) => {
    const seen = new Set<string>();
    steps.forEach((s, i) => {
      if (!s.id) return;
      if (seen.has(s.id)) ctx.addIssue({ code: "custom", path: [i, "id"], message: `Step id "${s.id}" is used twice` });
      seen.add(s.id);
    });
  });

/** POST /api/v1/collections */
export const CreateCollectionSchema = z.object({
  name: Name,
  description: z.string().max(4000).nullish(),
  steps: StepsSchema.default([]),
  variables: Json.default({}),
});
export type CreateCollection = z.infer<typeof CreateCollectionSchema>;

/** PATCH /api/v1/collections/:id – the fields given are replaced. */
export const UpdateCollectionSchema = z.object({
  name: Name.optional(),
  description: z.string().max(4000).nullish(),
  steps: StepsSchema.optional(),
  variables: Json.optional(),
});
export type UpdateCollection = z.infer<typeof UpdateCollectionSchema>;

/** POST /api/v1/collections/import – the export file. */
export const CollectionFileSchema = z.object({
  switchboard: z.literal("collection"),
  version: z.literal(1),
  name: Name,
  description: z.string().max(4000).nullish(),
  variables: Json.default({}),
  steps: StepsSchema,
});

/** POST /api/v1/collections/import?name= – the name to import under instead of the file's. */
export const ImportCollectionQuerySchema = z.object({ name: Name.optional() });

/** GET /api/v1/collections */
export const ListCollectionsQuerySchema = z.object({ name: z.string().max(200).optional() });

/** POST /api/v1/collections/:id/runs */
export const StartRunSchema = z.object({
  environment: z.string().trim().min(1).max(200).optional(),
  variables: Json.optional(),
  stopOnFailure: z.boolean().default(true),
  origin: z.enum(RUN_ORIGINS.filter((o) => o !== "monitor") as ["console", "api", "cli"]).default("api"),
});
export type StartRun = z.infer<typeof StartRunSchema>;

/** GET /api/v1/collections/:id/runs: one origin, "any", or by default the runs people started (no monitor's). */
export const ListRunsQuerySchema = z.object({
  origin: z.enum([...RUN_ORIGINS, "any"]).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ListRunsQuery = z.infer<typeof ListRunsQuerySchema>;

/** GET /api/v1/runs/:id */
export const RunQuerySchema = z.object({ format: z.enum(["json", "junit"]).default("json") });

const ServersMap = z.record(z.string().min(1).max(200), z.string().min(1).max(200));

/** POST /api/v1/environments */
export const CreateEnvironmentSchema = z.object({
  name: Name,
  values: Json.default({}),
  /** Write-only values (tokens, passwords): stored encrypted, never returned. */
  secrets: z.record(z.string().min(1).max(200), z.string().max(10_000)).default({}),
  servers: ServersMap.default({}),
});
export type CreateEnvironment = z.infer<typeof CreateEnvironmentSchema>;

/** PATCH /api/v1/environments/:id – `secrets` sets the named ones (null deletes one), others stay. */
export const UpdateEnvironmentSchema = z.object({
  name: Name.optional(),
  values: Json.optional(),
  secrets: z.record(z.string().min(1).max(200), z.string().max(10_000).nullable()).optional(),
  servers: ServersMap.optional(),
});
export type UpdateEnvironment = z.infer<typeof UpdateEnvironmentSchema>;
