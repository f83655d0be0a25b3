export type { ListLogsQuery } from "./schemas";

/** RFC 5424 severities as MCP names them, lowest first; the index is the stored `severity`. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The severity rank of a level (unknown levels rank as "info"). */
export function severityOf(level: string): number {
  const i = LOG_LEVELS.indexOf(level as LogLevel);
  return i < 0 ? 1 : i;
}

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
