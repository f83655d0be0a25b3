"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { JsonTree } from "@/components/ui/json-tree";
import { Skeleton } from "@/components/ui/spinner";
import type { CallDto } from "@/lib/domains/calls";
import { useCall } from "@/lib/domains/calls/hooks";
import { CallDiff, JsonDiff } from "./call-diff";
import { CallStatusBadge } from "./call-status-badge";
import { compareHeadline, inTimeOrder } from "./compare-story";
import { formatDuration, formatTime } from "./format";
import { ResultView } from "./result-view";

/** The compare page for `?a=<call id>&b=<call id>`: two calls side by side, the earlier one as A. */
export function ComparePageFromUrl() {
  const params = useSearchParams();
  const a = params.get("a") ?? undefined;
  const b = params.get("b") ?? undefined;
  return <ComparePage key={`${a}:${b}`} a={a} b={b} />;
}

function ComparePage({ a, b }: { a?: string; b?: string }) {
  if (!a || !b) {
    return (
      <EmptyState
        title="Pick two calls to compare"
        action={
          <Link href="/history" className={buttonClasses()}>
            History
          </Link>
        }
      >
        Tick two calls in the history, then choose Compare.
      </EmptyState>
    );
  }
  return <Comparison a={a} b={b} />;
}

function Comparison({ a, b }: { a: string; b: string }) {
  const left = useCall(a);
  const right = useCall(b);
  if (left.isPending || right.isPending) return <Skeleton className="h-64 w-full" />;
  if (left.error || right.error) return <ErrorAlert error={left.error ?? right.error} title="Could not load both calls" />;
  const [x, y] = inTimeOrder(left.data, right.data);

  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm" data-testid="compare-headline">
        {compareHeadline(x, y)} <span className="text-muted">A ran first.</span>
      </p>
      <div className="grid grid-cols-1 gap-3 xl:grid-cols-2">
        <CallHeading call={x} side="A" />
        <CallHeading call={y} side="B" />
      </div>

      <section aria-label="Arguments" className="flex flex-col gap-3">
        <h2 className="text-sm font-semibold">Arguments</h2>
        <div className="grid grid-cols-1 gap-3 xl:grid-cols-2">
          {[x, y].map((call, i) => (
            <div key={i} className="max-h-80 overflow-auto rounded-md border p-2" data-testid={`params-${i === 0 ? "a" : "b"}`}>
              <JsonTree value={call.params} label={`Params ${i === 0 ? "A" : "B"}`} />
            </div>
          ))}
        </div>
        <JsonDiff before={{ params: x.params }} after={{ params: y.params }} label="Argument differences" same="none: the same request" />
      </section>

      <section aria-label="Results" className="flex flex-col gap-3">
        <h2 className="text-sm font-semibold">Results</h2>
        <div className="grid grid-cols-1 gap-3 xl:grid-cols-2">
          <ResultView call={x} title="A" />
          <ResultView call={y} title="B" />
        </div>
        <CallDiff before={x} after={y} />
      </section>
    </div>
  );
}

function CallHeading({ call, side }: { call: CallDto; side: "A" | "B" }) {
  return (
    <section aria-label={`Call ${side}`} className="flex flex-col gap-1 rounded-lg border p-3 text-sm">
      <div className="flex items-center gap-2">
        <span className="rounded bg-panel px-1.5 font-mono text-xs font-semibold">{side}</span>
        <Link href={`/calls/${call.id}`} className="truncate font-mono font-medium text-accent hover:underline">
          {call.name}
        </Link>
        <CallStatusBadge status={call.status} isError={call.isError} />
      </div>
      <p className="text-xs text-muted">
        {call.serverName ?? "(deleted server)"} · <code>{call.method}</code> · {formatTime(call.startedAt)} · {formatDuration(call.durationMs)} · {call.userName ?? "API token"}
      </p>
    </section>
  );
}
