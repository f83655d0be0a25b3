"use client";

import { useEffect } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import { interactionKeys, type InteractionDto, type RespondInteraction } from "./index";

/** Pending server-initiated requests of the workspace; refreshed by `interaction` live events. */
export function usePendingInteractions() {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/api/v1/events");
    source.onmessage = (message: MessageEvent<string>) => {
      if (message.data.includes('"type":"interaction"') || message.data.includes('"type":"reset"')) {
        void queryClient.invalidateQueries({ queryKey: interactionKeys.all() });
      }
    };
    // Events published while this stream was (re)connecting are covered by a refetch.
    source.onopen = () => void queryClient.invalidateQueries({ queryKey: interactionKeys.all() });
    return () => source.close();
  }, [queryClient]);
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
