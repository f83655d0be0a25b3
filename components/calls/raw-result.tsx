"use client";

import { useMemo } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import type { CallDto } from "@/lib/domains/calls";
import { formatBytes, prettyJson } from "./format";
import { downloadText } from "./safe-content";

/** Results above this are "large": raw JSON is a compact preview, never pretty-printed whole. */
const LARGE_RESULT_BYTES = 1024 * 1024;
const RAW_PREVIEW_CHARS = 256 * 1024;

/** What the server answered, as JSON: the result, or the recorded error when there is none. */
function rawValue(call: CallDto): unknown {
  return call.result ?? (call.error ? { error: call.error } : null);
}

export function isLargeCall(call: CallDto): boolean {
  return (call.resultSize ?? 0) > LARGE_RESULT_BYTES;
}

export function downloadRaw(call: CallDto): void {
  downloadText(JSON.stringify(rawValue(call)), `call-${call.id}.json`, "application/json");
}

/** The raw result JSON: pretty and copyable when small; a compact preview plus download when large. */
export function RawResult({ call }: { call: CallDto }) {
  const large = isLargeCall(call);
  const text = useMemo(() => {
    if (!large) return prettyJson(rawValue(call));
    return JSON.stringify(rawValue(call)).slice(0, RAW_PREVIEW_CHARS);
  }, [call, large]);
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-center gap-2">
        {large ? (
          <p role="note" className="text-xs text-amber-700 dark:text-amber-300">
            The result is {formatBytes(call.resultSize)}; showing the first {formatBytes(RAW_PREVIEW_CHARS)} of its compact JSON.
          </p>
        ) : (
          <CopyButton text={text} label="Copy JSON" />
        )}
        <Button size="sm" className="ml-auto" onClick={() => downloadRaw(call)}>
          Download raw
        </Button>
      </div>
      <pre aria-label="Raw result JSON" className="max-h-[40rem] overflow-auto rounded-md bg-panel p-2 font-mono text-xs break-all whitespace-pre-wrap">
        {text}
      </pre>
    </div>
  );
}
