import { z } from "zod";

const ContentValueSchema = z.union([z.string().max(100_000), z.number(), z.boolean(), z.array(z.string().max(10_000)).max(1000)]);

/** One tool call in a sampling reply: an offered tool's name and its input object. */
export const ToolUseDraftSchema = z.object({
  name: z.string().trim().min(1).max(200),
  input: z.record(z.string(), z.unknown()).default({}),
});

/**
 * Body of POST /api/v1/interactions/:id/respond. Elicitation: accept (with `content` for forms),
 * decline or cancel. Sampling: `reply` with the assistant message (text, or one or more tool calls
 * with `toolUses`, which the console turns into `tool_use` blocks with generated ids and
 * `stopReason: "toolUse"`), or decline.
 */
export const RespondInteractionSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("accept"), content: z.record(z.string(), ContentValueSchema).optional() }),
  z.object({ action: z.literal("decline"), reason: z.string().max(1000).optional() }),
  z.object({ action: z.literal("cancel") }),
  z
    .object({
      action: z.literal("reply"),
      text: z.string().max(1_000_000).default(""),
      toolUses: z.array(ToolUseDraftSchema).max(20).optional(),
      model: z.string().trim().min(1).max(200).default("human"),
      stopReason: z.enum(["endTurn", "stopSequence", "maxTokens"]).default("endTurn"),
    })
    .refine((r) => r.text.length > 0 || (r.toolUses?.length ?? 0) > 0, { message: "Write a reply or call a tool", path: ["text"] }),
]);
export type RespondInteraction = z.infer<typeof RespondInteractionSchema>;

export const ListInteractionsSchema = z.object({
  status: z.enum(["pending", "answered", "declined", "cancelled", "expired", "refused"]).optional(),
  serverId: z.string().max(100).optional(),
});
export type ListInteractions = z.infer<typeof ListInteractionsSchema>;

/** One root a server may ask for with `roots/list`. */
export const RootSchema = z.object({
  uri: z
    .string()
    .trim()
    .max(4096)
    .refine((v) => /^file:\/\/\/./.test(v), "A root must be a file:// URI with an absolute path"),
  name: z.string().trim().max(200).optional(),
});
export type Root = z.infer<typeof RootSchema>;

export const RootsSchema = z.array(RootSchema).max(100);
