"use client";

import { useId, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/spinner";

interface ListEntry {
  key: string;
  /** The entry's button text, which is also its accessible name. */
  primary: string;
  secondary?: ReactNode;
  badges?: ReactNode;
}

interface MasterDetailProps {
  noun: string;
  entries: ListEntry[] | undefined;
  total: number;
  isLoading: boolean;
  error: unknown;
  filter: string;
  onFilterChange: (value: string) => void;
  selectedKey: string | null;
  onSelect: (key: string) => void;
  detail: ReactNode;
  emptyText: ReactNode;
}

/** A filterable list on the left and the selected entry's detail on the right. */
export function MasterDetail({ noun, entries, total, isLoading, error, filter, onFilterChange, selectedKey, onSelect, detail, emptyText }: MasterDetailProps) {
  const descId = useId();
  const detailRef = useRef<HTMLDivElement>(null);
  // Stacked on a narrow screen, the detail is below the list: a pick brings it into view, once the
  // picked entry's detail is rendered (scrolled before, a shorter detail would leave the view clamped).
  const [picks, setPicks] = useState(0);
  useLayoutEffect(() => {
    if (picks > 0 && window.matchMedia("(width < 48rem)").matches) detailRef.current?.scrollIntoView({ block: "start" });
  }, [picks]);
  const select = (key: string) => {
    onSelect(key);
    setPicks((n) => n + 1);
  };
  return (
    <div className="grid min-h-0 grid-cols-1 gap-0 md:grid-cols-[18rem_minmax(0,1fr)]">
      <div className="flex min-h-0 flex-col max-md:border-b md:border-r">
        <div className="border-b p-2">
          <Input type="search" aria-label={`Filter ${noun}`} placeholder={`Filter ${noun}…`} value={filter} onChange={(e) => onFilterChange(e.target.value)} />
        </div>
        <div className="max-h-64 min-h-40 overflow-y-auto md:max-h-[calc(100vh-14rem)]">
          {isLoading ? (
            <div className="flex flex-col gap-2 p-3">
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} className="h-8 w-full" />
              ))}
            </div>
          ) : error ? (
            <ErrorAlert error={error} title={`Could not list ${noun}`} className="m-2" />
          ) : total === 0 ? (
            <p className="p-3 text-sm text-muted">{emptyText}</p>
          ) : entries?.length === 0 ? (
            <p className="p-3 text-sm text-muted">Nothing matches “{filter}”.</p>
          ) : (
            <ul aria-label={noun} className="flex flex-col p-1">
              {entries?.map((entry, index) => {
                const selected = entry.key === selectedKey;
                return (
                  <li
                    key={entry.key}
                    className={cn(
                      "relative flex flex-col gap-0.5 rounded-md px-2 py-1.5 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
                      selected ? "bg-accent/10 ring-1 ring-accent/40" : "hover:bg-hover",
                    )}
                  >
                    <span className="flex w-full items-center gap-1.5">
                      {/* The button is named by its text alone; its ::after covers the whole card. */}
                      <button
                        type="button"
                        aria-describedby={entry.secondary ? `${descId}-${index}` : undefined}
                        aria-current={selected ? "true" : undefined}
                        onClick={() => select(entry.key)}
                        className="min-w-0 flex-1 truncate text-left font-mono text-xs font-medium outline-none after:absolute after:inset-0 after:content-['']"
                      >
                        {entry.primary}
                      </button>
                      {entry.badges}
                    </span>
                    {entry.secondary && (
                      <span id={`${descId}-${index}`} className="line-clamp-2 text-xs text-muted">
                        {entry.secondary}
                      </span>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      </div>
      {/* At least a screen tall when stacked, so a short detail can still be scrolled to the top. */}
      <div ref={detailRef} className="min-w-0 scroll-mt-2 p-3 max-md:min-h-[calc(100dvh-3rem)] md:p-4">
        {detail ?? (total > 0 ? <EmptyState title={`Select one of the ${noun}`} className="py-16" /> : null)}
      </div>
    </div>
  );
}

/** Case-insensitive match of `query` against any of the given strings. */
export function matches(query: string, ...fields: (string | undefined)[]): boolean {
  const q = query.trim().toLowerCase();
  return !q || fields.some((f) => f?.toLowerCase().includes(q));
}
