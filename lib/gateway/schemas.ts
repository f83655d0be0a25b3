import { z } from "zod";

export const ExposureSchema = z.object({
  enabled: z.boolean(),
  /** The tool names offered (null or absent: every tool the server lists). */
  tools: z.array(z.string().min(1).max(200)).max(1000).nullable().optional(),
  /** Offer only tools annotated readOnlyHint. */
  readOnly: z.boolean().optional(),
  /** Calls per minute allowed to one token or OAuth grant (null or absent: no limit). */
  rateLimitPerMinute: z.number().int().min(1).max(100_000).nullable().optional(),
});
export type ExposureInput = z.infer<typeof ExposureSchema>;

export const DisconnectQuerySchema = z.object({ revoke: z.enum(["true", "false"]).optional() });
