"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { resourceKeys, type ResourceSubscriptionsDto } from "./index";

/** The resources the server's live session is subscribed to (kept fresh by the event stream). */
export function useResourceSubscriptions(serverId: string, enabled = true) {
  return useQuery({
    queryKey: resourceKeys.subscriptions(serverId),
    queryFn: () => api<ResourceSubscriptionsDto>(`/servers/${encodeURIComponent(serverId)}/resources/subscriptions`),
    enabled,
    staleTime: 0,
  });
}

/** Subscribes (`subscribed: true`) or unsubscribes a resource on the live session. */
export function useToggleResourceSubscription(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uri, subscribed }: { uri: string; subscribed: boolean }) =>
      api<ResourceSubscriptionsDto>(`/servers/${encodeURIComponent(serverId)}/resources/${subscribed ? "subscribe" : "unsubscribe"}`, {
        method: "POST",
        body: { uri },
      }),
    onSuccess: (dto) => queryClient.setQueryData(resourceKeys.subscriptions(serverId), dto),
  });
}

/**
 * When the console last heard `notifications/resources/updated` for the URI (an ISO time), or
 * undefined. Written by `useServerEvents` from the event stream; this query never fetches.
 */
export function useResourceUpdatedAt(serverId: string, uri: string): string | undefined {
  const { data } = useQuery<string | null>({
    queryKey: resourceKeys.updated(serverId, uri),
    queryFn: () => null,
    enabled: false,
    staleTime: Infinity,
  });
  return data ?? undefined;
}
