import { z } from "zod";

/** What a server asks a person: a form, a link to open, or a sampling completion. */
export type InteractionKind = "elicitation-form" | "elicitation-url" | "sampling";
export type InteractionStatus = "pending" | "answered" | "declined" | "cancelled" | "expired";

/** A server-initiated request waiting for (or answered by) a person. */
export interface InteractionDto {
  id: string;
  serverId: string;
  serverName: string;
  sessionId: string | null;
  callId: string | null;
  kind: InteractionKind;
  /** The request params as the server sent them (elicitation or sampling params). */
  request: Record<string, unknown>;
  status: InteractionStatus;
  response: Record<string, unknown> | null;
  answeredBy: string | null;
  /** Whether a browser was watching when the request arrived. */
  attended: boolean;
  /** The unattended policy applied ("decline" | "wait"), null when attended. */
  policy: "decline" | "wait" | null;
  outcome: string | null;
  /**
   * URL mode reported by a `URLElicitationRequired` error: nobody on the server side waits for an
   * answer; the person opens the link and re-runs the call.
   */
  fromError: boolean;
  /** URL mode: when `notifications/elicitation/complete` arrived. */
  completedAt: string | null;
  deadlineAt: string | null;
  createdAt: string;
  answeredAt: string | null;
}

const ContentValueSchema = z.union([z.string().max(100_000), z.number(), z.boolean(), z.array(z.string().max(10_000)).max(1000)]);

/**
 * Body of POST /api/v1/interactions/:id/respond. Elicitation: accept (with `content` for forms),
 * decline or cancel. Sampling: `reply` with the assistant message, or decline.
 */
export const RespondInteractionSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("accept"), content: z.record(z.string(), ContentValueSchema).optional() }),
  z.object({ action: z.literal("decline"), reason: z.string().max(1000).optional() }),
  z.object({ action: z.literal("cancel") }),
  z.object({
    action: z.literal("reply"),
    text: z.string().max(1_000_000),
    model: z.string().trim().min(1).max(200).default("human"),
    stopReason: z.enum(["endTurn", "stopSequence", "maxTokens"]).default("endTurn"),
  }),
]);
export type RespondInteraction = z.infer<typeof RespondInteractionSchema>;

export const ListInteractionsSchema = z.object({
  status: z.enum(["pending", "answered", "declined", "cancelled", "expired"]).optional(),
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

export const interactionKeys = {
  all: () => ["interactions"] as const,
  list: (filter: ListInteractions) => ["interactions", filter] as const,
};
export { checkFormContent, enumValues } from "./validate";
