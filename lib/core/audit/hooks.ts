"use client";

import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { api, apiUrl, getWorkspaceId } from "@/lib/core/api-client";
import { auditKeys, type AuditFilters, type AuditPage } from "./index";

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
