"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Loading, Skeleton } from "@/components/ui/spinner";
import { formatTime } from "@/components/calls/format";
import type { AuditEntryDto, AuditFilters } from "@/lib/core/audit";
import { auditExportUrl, useAudit } from "@/lib/core/audit/hooks";
import { useCan } from "@/lib/identity/auth/hooks";
import { AuditFiltersForm, FILTER_KEYS } from "./audit-filters";
import { useLoadMore } from "@/components/ui/use-load-more";

// Narrow screens wrap the cells into lines instead of columns.
const COLUMNS = "flex flex-wrap gap-x-2 gap-y-0.5 md:grid md:grid-cols-[9.5rem_11rem_minmax(8rem,1fr)_minmax(8rem,1fr)_7rem] md:gap-x-3";

/** The audit log page: filters in the URL, newest first, more as you scroll, NDJSON export. Admins only. */
export function AuditLog() {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const can = useCan("admin");
  const filters: Partial<AuditFilters> = {};
  for (const key of FILTER_KEYS) {
    const value = searchParams.get(key);
    if (value) filters[key] = value;
  }
  const setFilters = (next: Partial<AuditFilters>) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(next)) if (value) params.set(key, value);
    const qs = params.toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };

  if (!can.allowed) {
    return can.reason ? <EmptyState title="Only admins and owners can read the audit log">{can.reason}.</EmptyState> : <Skeleton className="h-32 w-full" />;
  }
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <AuditFiltersForm filters={filters} onChange={setFilters} />
        <a href={auditExportUrl(filters)} download className={buttonClasses("secondary")}>
          Export NDJSON
        </a>
      </div>
      <AuditList filters={filters} onFilter={(patch) => setFilters({ ...filters, ...patch })} />
    </div>
  );
}

function AuditList({ filters, onFilter }: { filters: Partial<AuditFilters>; onFilter: (patch: Partial<AuditFilters>) => void }) {
  const audit = useAudit(filters);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = audit;
  const sentinel = useLoadMore(audit);

  if (audit.isPending) return <Skeleton className="h-48 w-full" />;
  if (audit.error && !audit.data) return <ErrorAlert error={audit.error} title="Could not load the audit log" />;
  const rows = audit.data?.pages.flatMap((p) => p.items) ?? [];
  if (rows.length === 0) return <EmptyState title={Object.keys(filters).length ? "No events match these filters" : "Nothing recorded yet"} />;

  return (
    <div className={audit.isPlaceholderData ? "opacity-60 transition-opacity" : undefined} aria-busy={audit.isFetching || undefined}>
      <div className={`${COLUMNS} border-b max-md:hidden px-3 pb-1.5 text-xs font-medium text-muted`} aria-hidden>
        <span>Time</span>
        <span>Action</span>
        <span>Actor</span>
        <span>Target</span>
        <span>From</span>
      </div>
      <ul aria-label="Audit events" className="divide-y">
        {rows.map((entry) => (
          <AuditRow key={entry.id} entry={entry} onFilter={onFilter} />
        ))}
      </ul>
      <div ref={sentinel} className="flex justify-center py-4">
        {isFetchingNextPage ? (
          <Loading label="Loading older events…" />
        ) : hasNextPage ? (
          <Button onClick={() => void fetchNextPage()}>Load older events</Button>
        ) : (
          <p className="text-xs text-muted">That is the oldest event.</p>
        )}
      </div>
      {audit.error && <ErrorAlert error={audit.error} />}
    </div>
  );
}

function AuditRow({ entry, onFilter }: { entry: AuditEntryDto; onFilter: (patch: Partial<AuditFilters>) => void }) {
  const { actor, target } = entry;
  return (
    <li data-testid="audit-row" className="px-3 py-1.5 text-sm">
      <div className={`${COLUMNS} items-center`}>
        <time dateTime={entry.createdAt} className="text-xs text-muted tabular-nums">
          {formatTime(entry.createdAt, true)}
        </time>
        <button type="button" className="truncate text-left font-mono text-xs font-medium hover:underline" title="Show only this action" onClick={() => onFilter({ action: entry.action })}>
          {entry.action}
        </button>
        <span className="flex min-w-0 items-center gap-1.5">
          <Badge tone={actor.type === "system" ? "violet" : actor.type === "anonymous" ? "amber" : "neutral"}>{actor.type}</Badge>
          {actor.id ? (
            <button type="button" className="truncate text-left hover:underline" title="Show only this actor" onClick={() => onFilter({ actorId: actor.id ?? undefined })}>
              {actor.name ?? actor.id}
            </button>
          ) : (
            <span className="truncate text-muted">{actor.name ?? "—"}</span>
          )}
        </span>
        <span className="flex min-w-0 items-center gap-1.5">
          {target.type && <span className="text-xs text-muted">{target.type}</span>}
          {target.id ? (
            <button type="button" className="truncate text-left hover:underline" title="Show only this target" onClick={() => onFilter({ targetType: target.type ?? undefined, targetId: target.id ?? undefined })}>
              {target.name ?? target.id}
            </button>
          ) : (
            <span className="truncate">{target.name ?? ""}</span>
          )}
        </span>
        <span className="truncate font-mono text-xs text-muted" title={entry.userAgent ?? undefined}>
          {entry.ip ?? "—"}
        </span>
      </div>
      {entry.details && (
        <details className="mt-0.5">
          <summary className="cursor-pointer truncate font-mono text-[11px] text-muted">{JSON.stringify(entry.details)}</summary>
          <pre className="mt-1 overflow-x-auto rounded bg-hover p-2 font-mono text-[11px]">{JSON.stringify(entry.details, null, 2)}</pre>
        </details>
      )}
    </li>
  );
}
