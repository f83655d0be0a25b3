"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { alertKeys, type AlertDto, type UnreadAlertsDto } from "@/lib/watch/alerts";

/** The workspace's alerts, newest first: what was sent and whether each delivery worked (`alert` events refresh it). */
export function useAlerts() {
  return useQuery({
    queryKey: alertKeys.list(),
    queryFn: ({ signal }) => api<{ items: AlertDto[] }>("/alerts", { signal }).then((r) => r.items),
    staleTime: 5_000,
  });
}

/** The navigation's count: alerts the signed-in person may act on, raised since they last opened Alerts (`alert` and `alerts_seen` events refresh it). */
export function useUnreadAlerts() {
  return useQuery({
    queryKey: alertKeys.unread(),
    queryFn: ({ signal }) => api<{ unread: UnreadAlertsDto }>("/alerts/unread", { signal }).then((r) => r.unread),
    staleTime: 30_000,
  });
}

/** Marks the alerts read up to `upTo` (the newest one a page shows). */
export function useMarkAlertsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (upTo: string) => api<{ unread: UnreadAlertsDto }>("/alerts/read", { method: "POST", body: { upTo } }).then((r) => r.unread),
    onSuccess: (unread) => queryClient.setQueryData(alertKeys.unread(), unread),
  });
}
