"use client";

import { useState } from "react";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Loading } from "@/components/ui/spinner";
import { McpAppView } from "@/components/apps/mcp-app-view";
import type { CallDto } from "@/lib/domains/calls";
import { CallErrorBox } from "./call-error-alert";
import { CallStatusBadge } from "./call-status-badge";
import { formatBytes, formatDuration } from "./format";
import { downloadRaw, isLargeCall, RawResult } from "./raw-result";
import { RenderContext, useRenderSource } from "./render-context";
import { ResultBody } from "./result-body";

interface ResultViewProps {
  call: CallDto;
  /** The tool's outputSchema; `null` when it has none, `undefined` to look it up in the server's tool list. */
  outputSchema?: unknown;
  showPermalink?: boolean;
  title?: string;
}

/** A call's outcome: status, timings, sizes, ids, and the result rendered for its method. */
export function ResultView({ call, outputSchema, showPermalink = true, title }: ResultViewProps) {
  const [raw, setRaw] = useState(false);
  const { readOnly } = useRenderSource();
  return (
    <section data-testid="result-view" aria-label={title ?? "Result"} className="min-w-0 overflow-hidden rounded-lg border">
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b bg-panel px-3 py-2 text-xs text-muted">
        {title && <span className="font-semibold text-fg">{title}</span>}
        <CallStatusBadge status={call.status} isError={call.isError} />
        {call.origin !== "user" && <OriginBadge call={readOnly ? { origin: call.origin, parentCallId: null } : call} />}
        <span title="Duration" data-testid="call-duration">
          {formatDuration(call.durationMs)}
        </span>
        <span title="Request and result size">
          ↑ {formatBytes(call.requestSize)} · ↓ {formatBytes(call.resultSize)}
        </span>
        {call.requestId && (
          <span className="hidden truncate xl:inline" title={`Request id ${call.requestId}`}>
            req <code className="font-mono">{call.requestId}</code>
          </span>
        )}
        {call.traceId && (
          <span className="hidden truncate xl:inline" title={`Trace id ${call.traceId}`}>
            trace <code className="font-mono">{call.traceId}</code>
          </span>
        )}
        <span className="ml-auto flex items-center gap-2">
          {showPermalink && !readOnly && (
            <Link href={`/calls/${call.id}`} className="text-accent hover:underline">
              Permalink
            </Link>
          )}
          <Button size="sm" variant="ghost" aria-pressed={raw} onClick={() => setRaw(!raw)}>
            Raw JSON
          </Button>
        </span>
      </header>
      <div className="flex flex-col gap-3 p-3">
        {call.status !== "ok" && call.error && <CallErrorBox error={call.error} />}
        {call.status === "pending" && <Loading label="Still running…" />}
        {!raw && isLargeCall(call) && (
          <Alert
            tone="warning"
            title={`Large result (${formatBytes(call.resultSize)})`}
            action={
              <Button size="sm" onClick={() => downloadRaw(call)}>
                Download raw
              </Button>
            }
          >
            It is stored whole; big parts are shown as previews.
          </Alert>
        )}
        {call.method === "tools/call" && !readOnly && <McpAppView call={call} />}
        <RenderContext value={readOnly ? { readOnly } : { serverId: call.serverId, callId: call.id }}>
          {raw ? <RawResult call={call} /> : <ResultBody call={call} outputSchema={outputSchema} />}
        </RenderContext>
      </div>
    </section>
  );
}

/** "from card" / "from app", linked to the call whose result made it. */
function OriginBadge({ call }: { call: Pick<CallDto, "origin" | "parentCallId"> }) {
  const label = `from ${call.origin}`;
  return call.parentCallId ? (
    <Link href={`/calls/${call.parentCallId}`} title="Open the call it came from" data-testid="call-origin">
      <Badge tone="violet">{label}</Badge>
    </Link>
  ) : (
    <Badge tone="violet" testId="call-origin">
      {label}
    </Badge>
  );
}
