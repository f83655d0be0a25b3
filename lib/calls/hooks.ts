"use client";

import { useEffect, useState } from "react";
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

type RunBody<M extends RunCallInput["method"]> = Omit<Extract<RunCallInput, { method: M }>["body"], "requestId">;

/**
 * Runs one call at a time with a client-chosen requestId, so it can be cancelled, and ticks an
 * elapsed-time counter while it is in flight.
 */
export function useCallRunner() {
  const run = useRunCall();
  const cancel = useCancelCall();
  const [requestId, setRequestId] = useState<string | null>(null);
  const [startedAt, setStartedAt] = useState(0);
  const [now, setNow] = useState(0);
  const running = run.isPending;

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, [running]);

  function start<M extends RunCallInput["method"]>(serverId: string, method: M, body: RunBody<M>) {
    const id = crypto.randomUUID();
    const at = Date.now();
    setRequestId(id);
    setStartedAt(at);
    setNow(at);
    cancel.reset();
    run.mutate({ serverId, method, body: { ...body, requestId: id } } as unknown as RunCallInput);
  }

  return {
    start,
    cancel: () => {
      if (requestId && running) cancel.mutate(requestId);
    },
    running,
    cancelling: cancel.isPending || (cancel.isSuccess && running),
    elapsedMs: running ? Math.max(0, now - startedAt) : null,
    call: run.data,
    error: run.error ?? cancel.error,
    reset: run.reset,
  };
}
