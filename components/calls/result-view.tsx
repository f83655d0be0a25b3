"use client";

import { useState } from "react";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Loading } from "@/components/ui/spinner";
import type { CallDto } from "@/lib/calls";
import { CallErrorBox } from "./call-error-alert";
import { CallStatusBadge } from "./call-status-badge";
import { ContentBlocks, ResourceContents } from "./content-blocks";
import { formatBytes, formatDuration, prettyJson } from "./format";
import { asRecord, asString } from "./safe-content";
import { StructuredContent, StructuredContentFromServer } from "./structured-content";

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
  return (
    <section data-testid="result-view" aria-label={title ?? "Result"} className="min-w-0 overflow-hidden rounded-lg border">
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b bg-panel px-3 py-2 text-xs text-muted">
        {title && <span className="font-semibold text-fg">{title}</span>}
        <CallStatusBadge status={call.status} isError={call.isError} />
        <span title="Duration" data-testid="call-duration">
          {formatDuration(call.durationMs)}
        </span>
        <span title="Request and result size">
          ↑ {formatBytes(call.requestSize)} · ↓ {formatBytes(call.resultSize)}
        </span>
        <span className="hidden truncate xl:inline" title={`Request id ${call.requestId}`}>
          req <code className="font-mono">{call.requestId}</code>
        </span>
        <span className="hidden truncate xl:inline" title={`Trace id ${call.traceId}`}>
          trace <code className="font-mono">{call.traceId}</code>
        </span>
        <span className="ml-auto flex items-center gap-2">
          {showPermalink && (
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
        {raw ? (
          <div className="relative">
            <div className="absolute top-1 right-1">
              <CopyButton text={prettyJson(call.result)} label="Copy JSON" />
            </div>
            <pre aria-label="Raw result JSON" className="max-h-[40rem] overflow-auto rounded-md bg-panel p-2 font-mono text-xs">
              {prettyJson(call.result ?? null)}
            </pre>
          </div>
        ) : (
          <ResultBody call={call} outputSchema={outputSchema} />
        )}
      </div>
    </section>
  );
}

function ResultBody({ call, outputSchema }: { call: CallDto; outputSchema: unknown }) {
  const result = asRecord(call.result);
  if (!result) {
    return call.status === "ok" ? <p className="text-xs text-muted">The server returned no result.</p> : null;
  }
  if (call.method === "tools/call") {
    return (
      <>
        {(call.isError || result.isError === true) && (
          <Alert tone="error" title="Tool error">
            The tool ran and reported a failure (isError). Its content says why.
          </Alert>
        )}
        <ContentBlocks blocks={result.content} />
        {"structuredContent" in result &&
          (outputSchema === undefined ? (
            <StructuredContentFromServer serverId={call.serverId} toolName={call.name} value={result.structuredContent} />
          ) : (
            <StructuredContent value={result.structuredContent} outputSchema={outputSchema} />
          ))}
      </>
    );
  }
  if (call.method === "resources/read") {
    const contents = Array.isArray(result.contents) ? result.contents : [];
    if (contents.length === 0) return <p className="text-xs text-muted">The resource has no contents.</p>;
    return (
      <ol className="flex flex-col gap-2" aria-label="Contents">
        {contents.map((entry, i) => {
          const c = asRecord(entry) ?? {};
          return (
            <li key={i} className="overflow-hidden rounded-md border">
              <div className="border-b bg-panel px-2 py-1 font-mono text-[11px] break-all text-muted">{asString(c.uri) ?? "(no uri)"}</div>
              <div className="p-2">
                <ResourceContents contents={c} />
              </div>
            </li>
          );
        })}
      </ol>
    );
  }
  const messages = Array.isArray(result.messages) ? result.messages : [];
  return (
    <div className="flex flex-col gap-2">
      {asString(result.description) && <p className="text-sm text-muted">{asString(result.description)}</p>}
      {messages.length === 0 && <p className="text-xs text-muted">No messages.</p>}
      <ol className="flex flex-col gap-3" aria-label="Messages">
        {messages.map((m, i) => {
          const message = asRecord(m) ?? {};
          return (
            <li key={i} className="flex flex-col gap-1">
              <Badge tone={message.role === "assistant" ? "violet" : "blue"} className="self-start">
                {asString(message.role) ?? "message"}
              </Badge>
              <ContentBlocks blocks={message.content} />
            </li>
          );
        })}
      </ol>
    </div>
  );
}
