import { z } from "zod";

/** RFC 5424 severities as MCP names them, lowest first; the index is the stored `severity`. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export const LogLevelSchema = z.enum(LOG_LEVELS);
export type LogLevel = z.infer<typeof LogLevelSchema>;

/** The severity rank of a level (unknown levels rank as "info"). */
export function severityOf(level: string): number {
  const i = LOG_LEVELS.indexOf(level as LogLevel);
  return i < 0 ? 1 : i;
}

/** `PUT /api/v1/servers/:id/log-level`. */
export const SetLogLevelSchema = z.object({ level: LogLevelSchema });
export type SetLogLevel = z.infer<typeof SetLogLevelSchema>;

/** `GET /api/v1/sessions/:id/logs`: `level` is the minimum shown; newest first, paged by cursor. */
export const ListLogsQuerySchema = z.object({
  level: LogLevelSchema.optional(),
  q: z.string().trim().max(200).optional(),
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type ListLogsQuery = z.infer<typeof ListLogsQuerySchema>;

/** One stored log line. `data` is whatever the server sent (untrusted JSON). */
export interface LogLineDto {
  id: number;
  sessionId: string;
  level: LogLevel;
  logger: string | null;
  data: unknown;
  at: string;
}

export interface LogPage {
  items: LogLineDto[];
  nextCursor: string | null;
}

export const logKeys = {
  all: () => ["logs"] as const,
  session: (sessionId: string, filter: { level?: LogLevel; q?: string }) => ["logs", sessionId, filter] as const,
};
