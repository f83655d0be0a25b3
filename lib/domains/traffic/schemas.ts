import { z } from "zod";
import { TRAFFIC_DIRECTIONS } from "./index";

const TrafficDirectionSchema = z.enum(TRAFFIC_DIRECTIONS);

/**
 * `GET /api/v1/sessions/:id/traffic`: oldest first (a protocol trace reads forwards) unless
 * `order=newest`, paged by cursor (the id of the previous page's last message).
 */
export const ListTrafficQuerySchema = z.object({
  direction: TrafficDirectionSchema.optional(),
  /** Exact method, or a prefix ending in `/` (e.g. `notifications/`). */
  method: z.string().trim().max(200).optional(),
  q: z.string().trim().max(200).optional(),
  order: z.enum(["oldest", "newest"]).default("oldest"),
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
  format: z.enum(["json", "ndjson"]).default("json"),
});
export type ListTrafficQuery = z.infer<typeof ListTrafficQuerySchema>;

/** A traffic message id in a path. */
export const MessageIdSchema = z.coerce.number().int().positive();
