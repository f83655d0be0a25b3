import { z } from "zod";
import { LOG_LEVELS } from "./index";

const LogLevelSchema = z.enum(LOG_LEVELS);

/** `POST /api/v1/servers/:id/log-level`. */
export const SetLogLevelSchema = z.object({ level: LogLevelSchema });

/** `GET /api/v1/sessions/:id/logs`: `level` is the minimum shown; newest first, paged by cursor. */
export const ListLogsQuerySchema = z.object({
  level: LogLevelSchema.optional(),
  q: z.string().trim().max(200).optional(),
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type ListLogsQuery = z.infer<typeof ListLogsQuerySchema>;
