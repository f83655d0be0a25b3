"use client";

import { diffJson } from "diff";
import type { CallDto } from "@/lib/domains/calls";
import { cn } from "@/components/ui/cn";

function comparable(call: CallDto) {
  return { status: call.status, isError: call.isError, error: call.error ?? null, result: call.result ?? null };
}

interface Line {
  kind: "added" | "removed" | "same";
  text: string;
}

/** Line differences between two calls' outcomes (status, error, result) as canonical pretty JSON. */
export function CallDiff({ before, after }: { before: CallDto; after: CallDto }) {
  return <JsonDiff before={comparable(before)} after={comparable(after)} same="none: the same outcome as before" />;
}

/** Line differences between two JSON values, as canonical pretty JSON. */
export function JsonDiff({ before, after, label = "Differences", same }: { before: unknown; after: unknown; label?: string; same: string }) {
  // Bounded so a huge, wholly different result cannot freeze the tab.
  const changes = diffJson(before as object, after as object, { timeout: 1500 });
  if (!changes) return <p className="text-xs text-muted">The results are too different to compare line by line.</p>;

  const lines: Line[] = changes.flatMap((change) => {
    const kind: Line["kind"] = change.added ? "added" : change.removed ? "removed" : "same";
    return change.value.replace(/\n$/, "").split("\n").map((text) => ({ kind, text }));
  });
  const added = lines.filter((l) => l.kind === "added").length;
  const removed = lines.filter((l) => l.kind === "removed").length;

  return (
    <section aria-label={label} className="overflow-hidden rounded-lg border">
      <header className="flex items-center gap-3 border-b bg-panel px-3 py-1.5 text-xs">
        <span className="font-semibold">{label}</span>
        {added + removed === 0 ? (
          <span className="text-muted">{same}</span>
        ) : (
          <>
            <span className="text-emerald-700 dark:text-emerald-300">+{added} added</span>
            <span className="text-red-700 dark:text-red-300">−{removed} removed</span>
          </>
        )}
      </header>
      <pre className="max-h-[32rem] overflow-auto py-1 font-mono text-xs leading-5">
        {lines.map((line, i) => (
          <div
            key={i}
            data-change={line.kind}
            className={cn(
              "px-3 whitespace-pre-wrap",
              line.kind === "added" && "bg-emerald-100 text-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-200",
              line.kind === "removed" && "bg-red-100 text-red-900 dark:bg-red-950/60 dark:text-red-200",
            )}
          >
            <span aria-hidden className="mr-2 inline-block w-3 select-none text-muted">
              {line.kind === "added" ? "+" : line.kind === "removed" ? "−" : " "}
            </span>
            <span className="sr-only">{line.kind === "added" ? "added: " : line.kind === "removed" ? "removed: " : ""}</span>
            {line.text}
          </div>
        ))}
      </pre>
    </section>
  );
}
