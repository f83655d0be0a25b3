"use client";

import { lazy, Suspense } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { JsonTree } from "@/components/ui/json-tree";
import { CardList } from "@/components/cards/card-view";
import type { CallDto } from "@/lib/domains/calls";
import { findCards } from "@/lib/domains/cards";
import { ContentBlocks, ResourceContents } from "./content-blocks";
import { useRenderSource } from "./render-context";
import { asRecord, asString } from "./safe-content";

// The outputSchema check (ajv) is fetched only for results that carry structured content.
const StructuredContent = lazy(() => import("./structured-content").then((m) => ({ default: m.StructuredContent })));
const StructuredContentFromServer = lazy(() => import("./structured-content").then((m) => ({ default: m.StructuredContentFromServer })));

function Empty({ children, raw }: { children: string; raw?: unknown }) {
  return (
    <div className="flex flex-col gap-1">
      <p role="note" data-testid="empty-result" className="text-xs text-muted">
        {children}
      </p>
      {raw !== undefined && <JsonTree value={raw} label="Raw result" />}
    </div>
  );
}

/** The result of a call rendered for its method: tool content, cards and structured output; resource contents; prompt messages. */
export function ResultBody({ call, outputSchema }: { call: CallDto; outputSchema: unknown }) {
  const { readOnly } = useRenderSource();
  const result = asRecord(call.result);
  if (!result) {
    if (call.status !== "ok") return null;
    return <Empty raw={call.result ?? undefined}>{call.result === null || call.result === undefined ? "The server returned no result." : "The result is not a JSON object; its raw value:"}</Empty>;
  }
  if (call.method === "tools/call") {
    const cards = findCards(result);
    const content = result.content;
    const empty = (content === undefined || (Array.isArray(content) && content.length === 0)) && !("structuredContent" in result) && cards.length === 0;
    return (
      <>
        {(call.isError || result.isError === true) && (
          <Alert tone="error" title="Tool error">
            The tool ran and reported a failure (isError). Its content says why.
          </Alert>
        )}
        {cards.length > 0 && <CardList entries={cards} />}
        {empty ? <Empty raw={result}>The tool returned an empty result: no content, no structured content.</Empty> : <ContentBlocks blocks={content} />}
        {"structuredContent" in result && (
          <Suspense fallback={<p role="status" className="text-xs text-muted">Loading structured content…</p>}>
            {outputSchema === undefined && !readOnly ? (
              <StructuredContentFromServer serverId={call.serverId} toolName={call.name} value={result.structuredContent} />
            ) : (
              <StructuredContent value={result.structuredContent} outputSchema={outputSchema} />
            )}
          </Suspense>
        )}
      </>
    );
  }
  if (call.method === "resources/read") {
    const contents = Array.isArray(result.contents) ? result.contents : [];
    if (contents.length === 0) return <Empty raw={result}>The resource has no contents.</Empty>;
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
      {messages.length === 0 && <Empty raw={result}>No messages.</Empty>}
      <ol className="flex flex-col gap-3" aria-label="Messages">
        {messages.map((m, i) => {
          const message = asRecord(m) ?? {};
          return (
            <li key={i} className="flex flex-col gap-1">
              <Badge tone={message.role === "assistant" ? "violet" : "blue"} className="self-start">
                {asString(message.role) ?? "message"}
              </Badge>
              {/* A prompt message holds one content block, not an array. */}
              <ContentBlocks blocks={Array.isArray(message.content) ? message.content : message.content === undefined ? [] : [message.content]} />
            </li>
          );
        })}
      </ol>
    </div>
  );
}
