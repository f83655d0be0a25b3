"use client";

import { useState } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Input, Select } from "@/components/ui/field";
import { LOG_LEVELS, severityOf, type LogLevel } from "@/lib/domains/logs";
import { useSessionLogs } from "@/lib/domains/logs/hooks";
import { useSetLogLevel } from "@/lib/domains/servers/hooks";
import type { ServerDto } from "@/lib/domains/servers";
import { SessionPicker } from "./session-picker";
import { useCan } from "@/lib/identity/auth/hooks";

const TONE: BadgeTone[] = ["neutral", "blue", "blue", "amber", "red", "red", "red", "red"];

/** A session's log lines (live), with the level asked of the server, a level filter and search. */
export function LogPanel({ server }: { server: ServerDto }) {
  const live = server.status === "connected" ? (server.session?.id ?? null) : null;
  const [picked, setPicked] = useState("");
  const sessionId = picked || live;
  const [level, setLevel] = useState<LogLevel | "">("");
  const [q, setQ] = useState("");
  const filter = { ...(level ? { level } : {}), ...(q.trim() ? { q: q.trim() } : {}) };
  const logs = useSessionLogs(sessionId, filter);
  const canSetLevel = useCan("member");
  const setServerLevel = useSetLogLevel(server.id);
  const lines = logs.data?.pages.flatMap((p) => p.items) ?? [];
  const supportsLogging = !server.session?.capabilities || "logging" in server.session.capabilities || server.session.era === "modern";

  return (
    <section aria-label="Logs" className="flex min-h-0 flex-col gap-3 p-4">
      <div className="flex flex-wrap items-center gap-2">
        <SessionPicker serverId={server.id} currentId={live} value={picked} onChange={setPicked} />
        <label className="flex items-center gap-1 text-xs text-muted">
          Server sends
          <Select
            aria-label="Server log level"
            className="w-auto!"
            value={server.session?.logLevel ?? ""}
            disabled={!live || !supportsLogging || setServerLevel.isPending || !canSetLevel.allowed}
            title={canSetLevel.reason || undefined}
            onChange={(e) => e.target.value && setServerLevel.mutate(e.target.value as LogLevel)}
          >
            <option value="">server default</option>
            {LOG_LEVELS.map((l) => (
              <option key={l} value={l}>
                {l} and above
              </option>
            ))}
          </Select>
        </label>
        <Select aria-label="Show level" className="w-auto!" value={level} onChange={(e) => setLevel(e.target.value as LogLevel | "")}>
          <option value="">all levels</option>
          {LOG_LEVELS.map((l) => (
            <option key={l} value={l}>
              {l}+
            </option>
          ))}
        </Select>
        <Input aria-label="Search logs" placeholder="Search" className="w-56!" value={q} onChange={(e) => setQ(e.target.value)} />
      </div>
      {!supportsLogging && <p className="text-xs text-muted">This server did not announce the “logging” capability.</p>}
      <ErrorAlert error={setServerLevel.error} title="Could not set the log level" />
      <ErrorAlert error={logs.error} title="Could not load the logs" />
      {!sessionId ? (
        <EmptyState title="No session">Connect the server to see its logs.</EmptyState>
      ) : lines.length === 0 && !logs.isPending ? (
        <EmptyState title="No log lines">{level || q ? "Nothing matches the filter." : "The server has not logged anything in this session."}</EmptyState>
      ) : (
        <ol className="flex flex-col divide-y rounded-md border font-mono text-xs" aria-label="Log lines">
          {lines.map((line) => (
            <li key={line.id} className="flex items-start gap-2 px-2 py-1">
              <time className="shrink-0 text-muted" dateTime={line.at}>
                {new Date(line.at).toLocaleTimeString()}
              </time>
              <Badge tone={TONE[severityOf(line.level)]}>{line.level}</Badge>
              {line.logger && <span className="shrink-0 text-muted">{line.logger}</span>}
              <span className="min-w-0 break-all whitespace-pre-wrap">{typeof line.data === "string" ? line.data : JSON.stringify(line.data)}</span>
            </li>
          ))}
        </ol>
      )}
      {logs.hasNextPage && (
        <Button size="sm" busy={logs.isFetchingNextPage} onClick={() => void logs.fetchNextPage()} className="self-start">
          Older lines
        </Button>
      )}
    </section>
  );
}
