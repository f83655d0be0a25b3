import { z } from "zod";

export const TrafficDirectionSchema = z.enum(["in", "out"]);
export type TrafficDirection = z.infer<typeof TrafficDirectionSchema>;
export type TrafficKind = "request" | "response" | "error" | "notification";

/** `GET /api/v1/sessions/:id/traffic`: oldest first (a protocol trace reads forwards), paged by cursor. */
export const ListTrafficQuerySchema = z.object({
  direction: TrafficDirectionSchema.optional(),
  /** Exact method, or a prefix ending in `/` (e.g. `notifications/`). */
  method: z.string().trim().max(200).optional(),
  q: z.string().trim().max(200).optional(),
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
  format: z.enum(["json", "ndjson"]).default("json"),
});
export type ListTrafficQuery = z.infer<typeof ListTrafficQuerySchema>;

/** One recorded JSON-RPC message. `body` is the message as JSON text (secrets scrubbed, maybe cut). */
export interface TrafficMessageDto {
  id: number;
  sessionId: string;
  direction: TrafficDirection;
  kind: TrafficKind;
  method: string | null;
  /** The JSON-RPC id as JSON text. */
  rpcId: string | null;
  size: number;
  durationMs: number | null;
  body: string;
  truncated: boolean;
  at: string;
}

export interface TrafficPage {
  items: TrafficMessageDto[];
  nextCursor: string | null;
}

export const trafficKeys = {
  all: () => ["traffic"] as const,
  session: (sessionId: string, filter: { direction?: TrafficDirection; method?: string; q?: string }) => ["traffic", sessionId, filter] as const,
};
