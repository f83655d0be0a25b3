"use client";

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, apiUrl, getWorkspaceId } from "@/lib/core/api-client";
import { auditKeys, auditSinkKeys, type AuditFilters, type AuditPage, type AuditSinkDto, type AuditVerifyDto } from "./index";
import type { CreateSink } from "./schemas";

const PAGE_SIZE = 50;

/** The audit log, newest first, one cursor page at a time (admins only; others get a 403). */
export function useAudit(filters: Partial<AuditFilters>, enabled = true) {
  return useInfiniteQuery({
    enabled,
    queryKey: auditKeys.list(filters),
    queryFn: ({ pageParam, signal }) => api<AuditPage>("/audit", { query: { ...filters, cursor: pageParam, limit: PAGE_SIZE }, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    staleTime: 5_000,
    retry: false,
  });
}

/**
 * Where the NDJSON export downloads from. A plain link streams it to disk (no blob in memory); the
 * workspace goes in the query because a link cannot send the `x-workspace-id` header.
 */
export function auditExportUrl(filters: Partial<AuditFilters>): string {
  return apiUrl("/audit/export", { ...filters, workspace: getWorkspaceId() });
}

/** The workspace's audit sinks with their delivery state, refreshed while the page is open. */
export function useAuditSinks(enabled = true) {
  return useQuery({
    enabled,
    queryKey: auditSinkKeys.all(),
    queryFn: ({ signal }) => api<{ sinks: AuditSinkDto[] }>("/audit/sinks", { signal }).then((r) => r.sinks),
    refetchInterval: 5_000,
    retry: false,
  });
}

/** Creates (no id) or changes a sink. */
export function useSaveAuditSink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: Partial<CreateSink> }) =>
      api<{ sink: AuditSinkDto }>(id ? `/audit/sinks/${encodeURIComponent(id)}` : "/audit/sinks", { method: id ? "PATCH" : "POST", body: input }).then((r) => r.sink),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: auditSinkKeys.all() }),
  });
}

export function useDeleteAuditSink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/audit/sinks/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: auditSinkKeys.all() }),
  });
}

/** Recomputes the hash chain on demand. */
export function useVerifyAudit() {
  return useMutation({ mutationFn: () => api<AuditVerifyDto>("/audit/verify") });
}
