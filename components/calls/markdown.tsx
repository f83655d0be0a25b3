"use client";

import { lazy, Suspense } from "react";

// react-markdown and remark-gfm are fetched the first time Markdown is shown; until then the text itself.
const MarkdownView = lazy(() => import("./markdown-view"));

/** Markdown from a server, rendered as React elements with GitHub-flavoured tables and lists. */
export function Markdown({ text }: { text: string }) {
  return (
    <Suspense fallback={<div className="text-sm leading-6 break-words whitespace-pre-wrap">{text}</div>}>
      <MarkdownView text={text} />
    </Suspense>
  );
}
