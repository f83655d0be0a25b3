"use client";

import { useEffect, useState } from "react";
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { api, eventsUrl, isApiError } from "@/lib/core/api-client";
import {
  callKeys,
  type CallDto,
  type CallProgress,
  type CallSummary,
  type CallTool,
  type GetPrompt,
  type ListCallsQuery,
  type Page,
  type ReadResource,
} from "@/lib/domains/calls";

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
    // A search answered while the index catches up on an import asks again until it is whole.
    refetchInterval: (query) => (query.state.data?.pages.some((p) => p.searchIncomplete) ? 5_000 : false),
  });
}

/** The newest `limit` calls (one page, kept in the history's cache shape), fetched while `enabled`. */
export function useRecentCalls(limit: number, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: callKeys.list({ limit }),
    queryFn: ({ signal }) => api<Page<CallSummary>>("/calls", { query: { limit }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: () => undefined,
    select: (data) => data.pages[0]?.items ?? [],
    enabled,
    staleTime: 5_000,
  });
}

export function useCall(id: string, enabled = true) {
  return useQuery({
    queryKey: callKeys.detail(id),
    enabled,
    queryFn: () => api<{ call: CallDto }>(`/calls/${encodeURIComponent(id)}`).then((r) => r.call),
    // A 404 (another workspace's call) will not change on retry; say so at once.
    retry: (count, err) => !isApiError(err) && count < 2,
    // A call still in flight (or just started elsewhere) settles soon; look again until it does.
    refetchInterval: (query) => (query.state.data?.status === "pending" ? 1_000 : false),
  });
}

/**
 * Which of the caller's other workspaces holds this call, if any: a permalink opened while
 * working in another workspace (the API answers 404 across workspaces).
 */
export function useCallWorkspace(id: string, workspaceIds: string[], enabled: boolean) {
  return useQuery({
    queryKey: ["calls", "workspace-of", id, workspaceIds] as const,
    queryFn: async ({ signal }) => {
      for (const workspaceId of workspaceIds) {
        const found = await api<{ call: CallDto }>(`/calls/${encodeURIComponent(id)}`, { workspaceId, signal }).then(
          () => true,
          () => false,
        );
        if (found) return workspaceId;
      }
      return null;
    },
    enabled,
  });
}

function remember(queryClient: QueryClient, call: CallDto) {
  queryClient.setQueryData(callKeys.detail(call.id), call);
  void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === "calls" && q.queryKey[1] !== "detail" });
}

const isHistoryList = (key: readonly unknown[]) => key[0] === "calls" && key[1] !== "detail" && key[1] !== "tasks";

/** Changes a call's review fields wherever it is cached: its permalink and every history page holding it. */
export function patchCall(queryClient: QueryClient, id: string, patch: Partial<Pick<CallDto, "tags" | "starred" | "noteCount">>) {
  queryClient.setQueryData<CallDto>(callKeys.detail(id), (old) => (old ? { ...old, ...patch } : old));
  queryClient.setQueriesData<InfiniteData<Page<CallSummary>>>({ predicate: (q) => isHistoryList(q.queryKey) }, (old) =>
    old ? { ...old, pages: old.pages.map((page) => ({ ...page, items: page.items.map((c) => (c.id === id ? { ...c, ...patch } : c)) })) } : old,
  );
}

/** Refetches the history lists: a tag or star filter may now include or exclude a call. */
export function refreshHistory(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ predicate: (q) => isHistoryList(q.queryKey) });
}

type RunCallInput =
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

function useCancelCall() {
  return useMutation({
    mutationFn: (requestId: string) => api<{ cancelled: boolean }>("/calls/cancel", { method: "POST", body: { requestId } }),
  });
}

/** `tasks/cancel` for a task call; the call settles as `cancelled` once the server confirms. */
export function useCancelTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ call: CallDto }>(`/calls/${encodeURIComponent(id)}/task/cancel`, { method: "POST" }).then((r) => r.call),
    onSuccess: (call) => remember(queryClient, call),
  });
}

/**
 * A server's task calls (one session's when `sessionId` is given) with their task state. `task`
 * events refresh it (useServerEvents); while a task runs it is also looked at every few seconds.
 */
export function useTaskCalls(serverId: string, sessionId?: string | null) {
  return useQuery({
    queryKey: callKeys.tasks(serverId, sessionId),
    queryFn: ({ signal }) =>
      api<{ items: CallSummary[] }>(`/servers/${encodeURIComponent(serverId)}/tasks`, { query: sessionId ? { sessionId } : {}, signal }).then((r) => r.items),
    refetchInterval: (query) => (query.state.data?.some((c) => c.status === "pending") ? 2_000 : false),
    staleTime: 0,
  });
}

/**
 * The latest `progress` event of the call with this requestId, live from GET /api/v1/events
 * while `active` (its own stream, opened for the duration of the call).
 */
export function useCallProgress(requestId: string | null, active: boolean): CallProgress | null {
  const [latest, setLatest] = useState<{ requestId: string; progress: CallProgress } | null>(null);
  useEffect(() => {
    if (!active || !requestId || typeof EventSource === "undefined") return;
    const source = new EventSource(eventsUrl());
    source.onmessage = (message: MessageEvent<string>) => {
      try {
        const event = JSON.parse(message.data) as { type?: string; requestId?: string } & Partial<CallProgress>;
        if (event.type !== "progress" || event.requestId !== requestId || typeof event.progress !== "number") return;
        setLatest({ requestId, progress: { progress: event.progress, total: event.total, message: event.message } });
      } catch {
        // Not ours to judge: a malformed event is skipped.
      }
    };
    return () => source.close();
  }, [requestId, active]);
  return latest?.requestId === requestId ? latest.progress : null;
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
    requestId,
    /** Whether the last Cancel reached a running call (the UI then says "cancelled"). */
    cancelled: cancel.data?.cancelled === true,
    call: run.data,
    error: run.error ?? cancel.error,
    reset: run.reset,
  };
}
