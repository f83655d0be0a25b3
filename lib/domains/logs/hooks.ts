"use client";

import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { logKeys, type LogLevel, type LogPage } from "./index";

const PAGE_SIZE = 100;

/** A session's log lines, newest first; the live channel invalidates it as lines arrive. */
export function useSessionLogs(sessionId: string | null, filter: { level?: LogLevel; q?: string }) {
  return useInfiniteQuery({
    queryKey: logKeys.session(sessionId ?? "", filter),
    queryFn: ({ pageParam, signal }) =>
      api<LogPage>(`/sessions/${encodeURIComponent(sessionId!)}/logs`, { query: { ...filter, cursor: pageParam, limit: PAGE_SIZE }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    enabled: !!sessionId,
    staleTime: 0,
  });
}
