import "server-only";
import { publish } from "@/lib/core/events/server";
import { DEFAULT_REDACTION_KEYS, redact } from "@/lib/core/redaction";
import { sessionSecrets } from "@/lib/domains/server-oauth/server";
import type { LogMessage } from "@/lib/mcp/server";
import { LOG_LEVELS, severityOf, type ListLogsQuery, type LogLevel, type LogLineDto, type LogPage } from "./index";
import * as q from "./queries";

/** Stored `data` is cut here (a server may log megabytes); the cut text is kept as a string. */
const MAX_DATA_CHARS = 64 * 1024;

/**
 * Stores a server's log line with its session and pushes it to the workspace's live channel; the
 * session's secret values (the server's stored ones and those its calls brought) are masked.
 */
export async function recordLog(input: { workspaceId: string; serverId: string; sessionId: string; message: LogMessage }): Promise<void> {
  const { workspaceId, serverId, sessionId, message } = input;
  const level = (LOG_LEVELS as readonly string[]).includes(message.level) ? message.level : "info";
  const secrets = await sessionSecrets({ workspaceId, serverId, sessionId });
  let data = JSON.stringify(redact(message.data ?? null, DEFAULT_REDACTION_KEYS, { secrets }).value) ?? "null";
  if (data.length > MAX_DATA_CHARS) data = JSON.stringify(`${data.slice(0, MAX_DATA_CHARS)}… (cut)`);
  const logger = message.logger === null ? null : redact(message.logger, [], { secrets }).value;
  const row = await q.insertLog({ workspaceId, serverId, sessionId, level, severity: severityOf(level), logger, data });
  publish(workspaceId, { type: "log", serverId, sessionId, log: { id: row.id, level, logger: row.logger, data: JSON.parse(data), at: row.createdAt.toISOString() } });
}

/** A session's log lines, newest first, at `level` or above, matching `q` in the data or logger name. */
export async function listSessionLogs(sessionId: string, query: ListLogsQuery): Promise<LogPage> {
  const rows = await q.listLogs({
    sessionId,
    minSeverity: query.level ? severityOf(query.level) : undefined,
    q: query.q || undefined,
    cursor: query.cursor,
    limit: query.limit,
  });
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const items: LogLineDto[] = page.map((r) => ({
    id: r.id,
    sessionId: r.sessionId,
    level: r.level as LogLevel,
    logger: r.logger,
    data: JSON.parse(r.data),
    at: r.createdAt.toISOString(),
  }));
  return { items, nextCursor: more ? String(page[page.length - 1]!.id) : null };
}

/** Remembers the level asked of the server on the session row. */
export async function rememberLogLevel(sessionId: string, level: LogLevel): Promise<void> {
  await q.saveLogLevel({ sessionId, level });
}
