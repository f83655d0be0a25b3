"use client";

import { lazy, Suspense } from "react";
import type { JsonEditorProps } from "./json-editor-codemirror";

// CodeMirror is a large share of a page's JavaScript: fetched when an editor is first shown.
const CodeMirrorJsonEditor = lazy(() => import("./json-editor-codemirror"));

/** A CodeMirror JSON editor whose text box is named `label` (role="textbox"). */
export function JsonEditor(props: JsonEditorProps) {
  return (
    <Suspense
      fallback={
        <div className="overflow-hidden rounded-md border text-xs" style={{ minHeight: props.minHeight ?? "8rem" }}>
          <p role="status" className="px-2 py-1 text-muted">
            Loading editor…
          </p>
          <pre aria-hidden className="px-2 font-mono whitespace-pre-wrap text-muted">
            {props.value}
          </pre>
        </div>
      }
    >
      <CodeMirrorJsonEditor {...props} />
    </Suspense>
  );
}
