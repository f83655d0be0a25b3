"use client";

import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Loading, Skeleton } from "@/components/ui/spinner";
import Link from "next/link";
import type { CallSummary } from "@/lib/domains/calls";
import { useCalls, type CallFilters } from "@/lib/domains/calls/hooks";
import { COLUMNS, HistoryRow } from "./history-row";
import { useLoadMore } from "@/components/ui/use-load-more";

/** Calls, newest first; the next page loads when the end of the list scrolls into view. */
export function HistoryList({ filters, selected = [], onToggle }: { filters: CallFilters; selected?: string[]; onToggle?: (id: string) => void }) {
  const calls = useCalls(filters);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = calls;
  const sentinel = useLoadMore(calls);

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
  const indexing = calls.data?.pages.some((p) => p.searchIncomplete) ? <IndexingNote /> : null;
  if (rows.length === 0) {
    return (
      <>
        {indexing}
        <EmptyState title={filtered ? "No calls match these filters" : "No calls yet"}>
          {filtered ? "Try widening the time range or clearing a filter." : "Run a tool, read a resource or get a prompt, and it shows up here."}
        </EmptyState>
      </>
    );
  }

  return (
    <div className={calls.isPlaceholderData ? "opacity-60 transition-opacity" : undefined} aria-busy={calls.isFetching || undefined}>
      {indexing}
      <div className={`${COLUMNS} border-b max-md:hidden pr-3 pb-1.5 text-xs font-medium text-muted ${onToggle ? "pl-16" : "pl-10"}`} aria-hidden>
        <span>Time</span>
        <span>Server</span>
        <span>Method</span>
        <span>Name</span>
        <span>Status</span>
        <span className="text-right">Duration</span>
        <span>User</span>
      </div>
      <ul aria-label="Calls" className="divide-y">
        {collapseRereads(rows).map(({ call, more }) => (
          <HistoryGroup key={call.id} call={call} more={more} selected={selected.includes(call.id)} onToggle={onToggle} />
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

/** A search answered while imported calls wait for the search index: older matches may be missing. */
function IndexingNote() {
  return (
    <p role="status" className="mb-2 rounded-md border px-3 py-2 text-xs text-muted" data-testid="search-indexing">
      Search is still indexing calls added in bulk (an import or an upgrade): the newest were searched, older matches may be
      missing for a minute; the list refreshes until the answer is whole.
    </p>
  );
}

/** Back-to-back automatic re-reads of one resource collapse into the newest, with a count. */
function collapseRereads(rows: CallSummary[]): { call: CallSummary; more: number }[] {
  const out: { call: CallSummary; more: number }[] = [];
  for (const call of rows) {
    const last = out.at(-1);
    if (last && call.origin === "subscription" && last.call.origin === "subscription" && last.call.serverId === call.serverId && last.call.name === call.name) last.more++;
    else out.push({ call, more: 0 });
  }
  return out;
}

function HistoryGroup({ call, more, selected, onToggle }: { call: CallSummary; more: number; selected: boolean; onToggle?: (id: string) => void }) {
  if (!more) return <HistoryRow call={call} selected={selected} onToggle={onToggle} />;
  const all = new URLSearchParams({ origin: "subscription", serverId: call.serverId, name: call.name });
  return (
    <>
      <HistoryRow call={call} selected={selected} onToggle={onToggle} />
      <li className="py-1 pl-10 text-xs text-muted" data-testid="collapsed-rereads">
        and {more} earlier re-read{more === 1 ? "" : "s"} of this resource after updates ·{" "}
        <Link href={`/history?${all}`} className="underline underline-offset-2 hover:text-fg">
          show each
        </Link>
      </li>
    </>
  );
}
