"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import type { Page } from "@/lib/domains/calls";
import { shareKeys, type CallSharesDto, type CreateShare, type ShareDto, type SharePreviewDto } from "./index";

/** A call's links that still work, and whether the workspace allows sharing. */
export function useCallShares(callId: string) {
  return useQuery({
    queryKey: shareKeys.forCall(callId),
    queryFn: ({ signal }) => api<CallSharesDto>(`/calls/${encodeURIComponent(callId)}/shares`, { signal }),
  });
}

/** What a link to this call would show; fetched fresh each time the dialog opens. */
export function useSharePreview(callId: string, enabled: boolean) {
  return useQuery({
    queryKey: shareKeys.preview(callId),
    queryFn: ({ signal }) => api<SharePreviewDto>(`/calls/${encodeURIComponent(callId)}/share-preview`, { signal }),
    enabled,
    staleTime: 0,
  });
}

/** Every link of the workspace, newest first. */
export function useShares() {
  return useInfiniteQuery({
    queryKey: shareKeys.list(),
    queryFn: ({ pageParam, signal }) => api<Page<ShareDto>>("/shares", { query: { cursor: pageParam, limit: 50 }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useCreateShare(callId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateShare) => api<{ share: ShareDto }>(`/calls/${encodeURIComponent(callId)}/shares`, { method: "POST", body: input }).then((r) => r.share),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.all() }),
  });
}

export function useRevokeShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/shares/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.all() }),
  });
}

/** POST /api/v1/runs/:id/share: a public, redacted link to a collection run. */
export function useCreateRunShare(runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateShare) => api<{ share: ShareDto }>(`/runs/${encodeURIComponent(runId)}/share`, { method: "POST", body: input }).then((r) => r.share),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shareKeys.all() }),
  });
}
