"use client";

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, getWorkspaceId } from "@/lib/core/api-client";
import { trafficKeys, type TrafficDirection, type TrafficMessageDto, type TrafficPage } from "./index";

const PAGE_SIZE = 200;

export type TrafficOrder = "newest" | "oldest";

/** A session's JSON-RPC messages in `order`, a page at a time. Refreshed every few seconds while `live`. */
export function useSessionTraffic(sessionId: string | null, filter: { direction?: TrafficDirection; method?: string; q?: string }, live: boolean, order: TrafficOrder = "newest") {
  return useInfiniteQuery({
    queryKey: [...trafficKeys.session(sessionId ?? "", filter), order],
    queryFn: ({ pageParam, signal }) =>
      api<TrafficPage>(`/sessions/${encodeURIComponent(sessionId!)}/traffic`, { query: { ...filter, order, cursor: pageParam, limit: PAGE_SIZE }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    enabled: !!sessionId,
    refetchInterval: live ? 3000 : false,
    staleTime: 0,
  });
}

/** The person's pinned messages of a session, shown above the list whatever its filter. */
export function usePinnedTraffic(sessionId: string | null, live: boolean) {
  return useQuery({
    queryKey: trafficKeys.pins(sessionId ?? ""),
    queryFn: ({ signal }) => api<{ items: TrafficMessageDto[] }>(`/sessions/${encodeURIComponent(sessionId!)}/traffic/pins`, { signal }).then((r) => r.items),
    enabled: !!sessionId,
    refetchInterval: live ? 3000 : false,
  });
}

export function useSetPin(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, pinned }: { messageId: number; pinned: boolean }) =>
      api<{ pinned: boolean }>(`/sessions/${encodeURIComponent(sessionId)}/traffic/${messageId}/pin`, { method: pinned ? "PUT" : "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: trafficKeys.pins(sessionId) }),
  });
}

/** Where the NDJSON export of a session's (filtered) traffic downloads from. */
function trafficExportUrl(sessionId: string, filter: { direction?: TrafficDirection; method?: string; q?: string }): string {
  const query = new URLSearchParams({ format: "ndjson" });
  for (const [key, value] of Object.entries(filter)) if (value) query.set(key, value);
  return `/api/v1/sessions/${encodeURIComponent(sessionId)}/traffic?${query}`;
}

/** Downloads the NDJSON export (fetched with the workspace header, which a plain link would not send). */
export async function downloadTraffic(sessionId: string, filter: { direction?: TrafficDirection; method?: string; q?: string }): Promise<void> {
  const workspaceId = getWorkspaceId();
  const response = await fetch(trafficExportUrl(sessionId, filter), { headers: workspaceId ? { "x-workspace-id": workspaceId } : {} });
  if (!response.ok) throw new Error(`Export failed (${response.status})`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = `traffic-${sessionId}.ndjson`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
