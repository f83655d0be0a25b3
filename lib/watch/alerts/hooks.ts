"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { alertKeys, type AlertDto } from "@/lib/watch/alerts";

/** The workspace's alerts, newest first: what was sent and whether each delivery worked (`alert` events refresh it). */
export function useAlerts() {
  return useQuery({
    queryKey: alertKeys.list(),
    queryFn: ({ signal }) => api<{ items: AlertDto[] }>("/alerts", { signal }).then((r) => r.items),
    staleTime: 5_000,
  });
}
