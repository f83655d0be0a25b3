import { z } from "zod";

/** POST /api/v1/agents/pairings – a name for the agent that will pair (defaults to its hostname). */
export const CreatePairingSchema = z.object({ name: z.string().trim().min(1).max(100).optional() });
export type CreatePairing = z.infer<typeof CreatePairingSchema>;

/** POST /api/v1/agents/pair – what the agent sends with its one-time code. */
export const PairAgentSchema = z.object({
  code: z.string().trim().min(6).max(64),
  name: z.string().trim().min(1).max(100).optional(),
  hostname: z.string().trim().max(255).default(""),
  version: z.string().trim().max(50).default(""),
  platform: z.string().trim().max(50).default(""),
});
export type PairAgent = z.infer<typeof PairAgentSchema>;
