"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { CodeView } from "./code-view";
import { formatBytes } from "./format";
import { Markdown } from "./markdown";
import { downloadText } from "./safe-content";

/** Text beyond this is shown as a preview with a download; nothing renders megabytes at once. */
const TEXT_PREVIEW_CHARS = 64 * 1024;
const MARKDOWN_LIMIT = 200_000;
const COLLAPSE_CHARS = 2000;
const COLLAPSE_LINES = 24;

function isMarkdownType(mimeType: string | undefined) {
  return !!mimeType && /^text\/(markdown|x-markdown)\b/i.test(mimeType);
}

function lineCountAbove(text: string, limit: number) {
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1 && lines <= limit; i = text.indexOf("\n", i + 1)) lines++;
  return lines > limit;
}

/**
 * A text content block: plain by default, Markdown when the mimeType says so or the user switches
 * it on, collapsed when long, a preview plus "Download" when huge, always copyable.
 */
export function TextBlock({ text, mimeType, filename = "text.txt" }: { text: string; mimeType?: string; filename?: string }) {
  const huge = text.length > TEXT_PREVIEW_CHARS;
  const [markdown, setMarkdown] = useState(isMarkdownType(mimeType) && text.length <= MARKDOWN_LIMIT);
  const [expanded, setExpanded] = useState(false);
  const shown = huge ? text.slice(0, TEXT_PREVIEW_CHARS) : text;
  const long = !huge && (text.length > COLLAPSE_CHARS || lineCountAbove(text, COLLAPSE_LINES));
  const clamp = long && !expanded ? "max-h-64 overflow-hidden" : huge ? "max-h-[32rem] overflow-auto" : "";

  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-center gap-1.5">
        <div role="group" aria-label="Text format" className="inline-flex rounded-md border p-0.5">
          {(["Plain", "Markdown"] as const).map((label) => (
            <Button
              key={label}
              size="sm"
              variant="ghost"
              disabled={label === "Markdown" && text.length > MARKDOWN_LIMIT}
              aria-pressed={(label === "Markdown") === markdown}
              onClick={() => setMarkdown(label === "Markdown")}
              className="h-6 border-0 text-muted aria-pressed:bg-hover aria-pressed:text-fg"
            >
              {label}
            </Button>
          ))}
        </div>
        <CopyButton text={text} label="Copy text" />
        {huge && (
          <Button size="sm" onClick={() => downloadText(text, filename, "text/plain;charset=utf-8")}>
            Download text
          </Button>
        )}
        <span className="ml-auto text-[11px] text-muted">{formatBytes(text.length)}</span>
      </div>
      {huge && (
        <p role="note" className="text-xs text-amber-700 dark:text-amber-300">
          Showing the first {formatBytes(TEXT_PREVIEW_CHARS)} of {formatBytes(text.length)}. Download the text to see all of it.
        </p>
      )}
      <div className={`relative ${clamp}`} data-testid="text-block">
        {markdown && !huge ? <Markdown text={shown} /> : <CodeView text={shown} mimeType={mimeType && !isMarkdownType(mimeType) ? mimeType : undefined} className="" />}
        {long && !expanded && <div aria-hidden className="pointer-events-none absolute inset-x-0 bottom-0 h-10 bg-gradient-to-t from-bg to-transparent" />}
      </div>
      {long && (
        <Button size="sm" variant="ghost" className="self-start" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
          {expanded ? "Show less" : "Show all"}
        </Button>
      )}
    </div>
  );
}
