"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { SavedViews } from "@/components/reviews/saved-views";
import type { CallFilters } from "@/lib/calls/hooks";
import { filtersFromParams, HistoryFilters } from "./history-filters";
import { HistoryList } from "./history-list";

export function HistoryPage() {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const filters = filtersFromParams(new URLSearchParams(searchParams.toString()));

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
      <HistoryList filters={filters} />
    </div>
  );
}
