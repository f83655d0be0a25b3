"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { interactionKeys, type InteractionDto, type RespondInteraction } from "./index";

/**
 * Pending server-initiated requests of the workspace. The console frame's one event stream
 * (`useServerEvents`) refetches this on `interaction` events, and replays or resets after a drop.
 */
export function usePendingInteractions() {
  return useQuery({
    queryKey: interactionKeys.list({ status: "pending" }),
    queryFn: () => api<{ items: InteractionDto[] }>("/interactions", { query: { status: "pending" } }).then((r) => r.items),
    staleTime: 0,
  });
}

/** Answers one interaction (accept/decline/cancel, or a sampling reply). */
export function useRespondInteraction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RespondInteraction) =>
      api<{ interaction: InteractionDto }>(`/interactions/${id}/respond`, { method: "POST", body: input }).then((r) => r.interaction),
    onSettled: () => queryClient.invalidateQueries({ queryKey: interactionKeys.all() }),
  });
}
