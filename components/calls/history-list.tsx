"use client";

import { useEffect, useRef } from "react";
import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Loading, Skeleton } from "@/components/ui/spinner";
import { useCalls, type CallFilters } from "@/lib/calls/hooks";
import { CallStatusBadge } from "./call-status-badge";
import { formatDuration, formatTime } from "./format";

const COLUMNS = "grid grid-cols-[8.5rem_8rem_6.5rem_minmax(6rem,1fr)_5.5rem_4.5rem_6rem] gap-x-3";

/** Calls, newest first; the next page loads when the end of the list scrolls into view. */
export function HistoryList({ filters }: { filters: CallFilters }) {
  const calls = useCalls(filters);
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = calls;

  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    }, { rootMargin: "400px" });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (calls.isPending) {
    return (
      <div className="flex flex-col gap-2">
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} className="h-10 w-full" />
        ))}
      </div>
    );
  }
  if (calls.error && !calls.data) return <ErrorAlert error={calls.error} title="Could not load history" />;

  const rows = calls.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = Object.values(filters).some(Boolean);
  if (rows.length === 0) {
    return (
      <EmptyState title={filtered ? "No calls match these filters" : "No calls yet"}>
        {filtered ? "Try widening the time range or clearing a filter." : "Run a tool, read a resource or get a prompt, and it shows up here."}
      </EmptyState>
    );
  }

  return (
    <div className={calls.isPlaceholderData ? "opacity-60 transition-opacity" : undefined} aria-busy={calls.isFetching || undefined}>
      <div className={`${COLUMNS} border-b px-3 pb-1.5 text-xs font-medium text-muted`} aria-hidden>
        <span>Time</span>
        <span>Server</span>
        <span>Method</span>
        <span>Name</span>
        <span>Status</span>
        <span className="text-right">Duration</span>
        <span>User</span>
      </div>
      <ul aria-label="Calls" className="divide-y">
        {rows.map((call) => (
          <li key={call.id} data-testid="history-row">
            <Link href={`/calls/${call.id}`} className="block px-3 py-1.5 hover:bg-hover focus-visible:bg-hover">
              <div className={`${COLUMNS} items-center text-sm`}>
                <time dateTime={call.startedAt} className="text-xs text-muted tabular-nums">
                  {formatTime(call.startedAt, true)}
                </time>
                <span className="flex min-w-0 items-center gap-1">
                  <span className="truncate">{call.serverName ?? "(deleted)"}</span>
                  {call.serverArchivedAt && (
                    <Badge tone="amber" testId="history-archived" title="Server archived: the call stays readable">
                      archived
                    </Badge>
                  )}
                </span>
                <span className="truncate font-mono text-xs text-muted">{call.method}</span>
                <span className="flex min-w-0 items-center gap-1.5">
                  <span className="truncate font-mono text-xs font-medium">{call.name}</span>
                  {call.origin !== "user" && (
                    <Badge tone="violet" testId="history-origin" title={call.parentCallId ? `Made from call ${call.parentCallId}` : undefined}>
                      {call.origin}
                    </Badge>
                  )}
                </span>
                <span>
                  <CallStatusBadge status={call.status} isError={call.isError} testId="history-status" />
                </span>
                <span className="text-right text-xs text-muted tabular-nums">{formatDuration(call.durationMs)}</span>
                <span className="truncate text-xs text-muted">{call.userName ?? "token"}</span>
              </div>
              <div className="mt-0.5 flex gap-3 truncate font-mono text-[11px] text-muted">
                <span className="max-w-[45%] truncate" title={call.paramsPreview}>
                  → {call.paramsPreview}
                </span>
                {call.resultPreview && (
                  <span className="min-w-0 flex-1 truncate" title={call.resultPreview}>
                    ← {call.resultPreview}
                  </span>
                )}
              </div>
            </Link>
          </li>
        ))}
      </ul>
      <div ref={sentinel} className="flex justify-center py-4">
        {isFetchingNextPage ? (
          <Loading label="Loading older calls…" />
        ) : hasNextPage ? (
          <Button onClick={() => void fetchNextPage()}>Load older calls</Button>
        ) : (
          <p className="text-xs text-muted">That is the oldest call.</p>
        )}
      </div>
      {calls.error && <ErrorAlert error={calls.error} />}
    </div>
  );
}
