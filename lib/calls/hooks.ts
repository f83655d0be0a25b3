"use client";

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";
import {
  callKeys,
  type CallDto,
  type CallSummary,
  type CallTool,
  type GetPrompt,
  type ListCallsQuery,
  type Page,
  type ReadResource,
} from "@/lib/calls";

export type CallFilters = Partial<Omit<ListCallsQuery, "cursor" | "limit">>;

const PAGE_SIZE = 50;

/** History, newest first, one cursor page at a time. */
export function useCalls(filters: CallFilters) {
  return useInfiniteQuery({
    queryKey: callKeys.list(filters),
    queryFn: ({ pageParam, signal }) =>
      api<Page<CallSummary>>("/calls", { query: { ...filters, cursor: pageParam, limit: PAGE_SIZE }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

export function useCall(id: string) {
  return useQuery({
    queryKey: callKeys.detail(id),
    queryFn: () => api<{ call: CallDto }>(`/calls/${encodeURIComponent(id)}`).then((r) => r.call),
    // A call still in flight (or just started elsewhere) settles soon; look again until it does.
    refetchInterval: (query) => (query.state.data?.status === "pending" ? 1_000 : false),
  });
}

function remember(queryClient: QueryClient, call: CallDto) {
  queryClient.setQueryData(callKeys.detail(call.id), call);
  void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === "calls" && q.queryKey[1] !== "detail" });
}

export type RunCallInput =
  | { serverId: string; method: "tools/call"; body: CallTool }
  | { serverId: string; method: "resources/read"; body: ReadResource }
  | { serverId: string; method: "prompts/get"; body: GetPrompt };

/** Runs tools/call, resources/read or prompts/get; MCP failures come back as a call, not as an error. */
export function useRunCall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ serverId, method, body }: RunCallInput) =>
      api<{ call: CallDto }>(`/servers/${encodeURIComponent(serverId)}/${method}`, { method: "POST", body }).then((r) => r.call),
    onSuccess: (call) => remember(queryClient, call),
  });
}

export function useCancelCall() {
  return useMutation({
    mutationFn: (requestId: string) => api<{ cancelled: boolean }>("/calls/cancel", { method: "POST", body: { requestId } }),
  });
}

export function useRerunCall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ call: CallDto }>(`/calls/${encodeURIComponent(id)}/rerun`, { method: "POST" }).then((r) => r.call),
    onSuccess: (call) => remember(queryClient, call),
  });
}
