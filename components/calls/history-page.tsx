"use client";

import { useState } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { SavedViews } from "@/components/reviews/saved-views";
import type { CallFilters } from "@/lib/domains/calls/hooks";
import { filtersFromParams, HistoryFilters } from "./history-filters";
import { HistoryList } from "./history-list";
import { HistoryToolbar } from "./history-toolbar";

export function HistoryPage() {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const filters = filtersFromParams(new URLSearchParams(searchParams.toString()));
  // "Compare with…" on a call arrives as ?compare=<id>: that call is ticked first.
  const [selected, setSelected] = useState<string[]>(() => (searchParams.get("compare") ? [searchParams.get("compare")!] : []));
  const toggle = (id: string) => setSelected((prev) => (prev.includes(id) ? prev.filter((x) => x !== id) : [...prev, id]));

  const setFilters = (next: CallFilters) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(next)) if (value) params.set(key, String(value));
    const qs = params.toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };

  return (
    <div className="flex flex-col gap-4">
      <SavedViews filters={filters as Record<string, string>} onApply={(view) => setFilters(filtersFromParams(new URLSearchParams(view)))} />
      <HistoryFilters filters={filters} onChange={setFilters} />
      <HistoryToolbar filters={filters} selected={selected} onClear={() => setSelected([])} />
      <HistoryList filters={filters} selected={selected} onToggle={toggle} />
    </div>
  );
}
