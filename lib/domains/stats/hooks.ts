"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { statsKeys, type Stats, type StatsFilters } from "./index";

/** The dashboard's numbers for a server (or the workspace) over a range. */
export function useStats(filters: StatsFilters) {
  return useQuery({
    queryKey: statsKeys.query(filters),
    queryFn: ({ signal }) => api<Stats>("/stats", { query: { ...filters }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
