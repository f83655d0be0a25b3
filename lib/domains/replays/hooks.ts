"use client";

import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api, isApiError } from "@/lib/core/api-client";
import { replayKeys, type ReplayDto, type ReplaySummary } from "./index";
import type { StartReplay } from "./schemas";

const enc = encodeURIComponent;
// A 404 (another workspace's) will not change on retry.
const retry = (count: number, err: unknown) => !isApiError(err) && count < 2;

export function useReplays() {
  return useQuery({
    queryKey: replayKeys.list(),
    queryFn: ({ signal }) => api<{ items: ReplaySummary[] }>("/replays", { signal }).then((r) => r.items),
    staleTime: 5_000,
  });
}

/** A replay; refreshed by the live channel's `replay` events, and polled while it runs in case the channel is down. */
export function useReplay(id: string) {
  return useQuery({
    queryKey: replayKeys.detail(id),
    queryFn: ({ signal }) => api<{ replay: ReplayDto }>(`/replays/${enc(id)}`, { signal }).then((r) => r.replay),
    retry,
    refetchInterval: (query) => (query.state.data?.status === "running" ? 2_000 : false),
  });
}

/** What POST /api/v1/replays takes (`ignore` defaults to none). */
export type StartReplayInput = Omit<StartReplay, "ignore"> & { ignore?: string[] };

export function useStartReplay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StartReplayInput) => api<{ replay: ReplayDto }>("/replays", { method: "POST", body: input }).then((r) => r.replay),
    onSuccess: (replay) => {
      queryClient.setQueryData(replayKeys.detail(replay.id), replay);
      void queryClient.invalidateQueries({ queryKey: replayKeys.list(), exact: true });
    },
  });
}

/** The live channel's `replay` event: the replay and the list read again. */
export function refreshReplay(queryClient: QueryClient, replayId: string) {
  void queryClient.invalidateQueries({ queryKey: replayKeys.detail(replayId), exact: true });
  void queryClient.invalidateQueries({ queryKey: replayKeys.list(), exact: true });
}
