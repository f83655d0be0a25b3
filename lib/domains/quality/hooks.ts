"use client";

import { useQuery } from "@tanstack/react-query";
import { api, isApiError } from "@/lib/core/api-client";
import type { LintReport } from "./index";

export const qualityKeys = {
  all: (serverId: string) => ["quality", serverId] as const,
  lint: (serverId: string, snapshotId: string | null) => ["quality", serverId, "lint", snapshotId] as const,
};

/**
 * The lint of a server's latest snapshot (or of `snapshotId`); a connect may add a snapshot at any
 * time: kept briefly. A server never connected has no snapshot: the API answers 409 `conflict`.
 */
export function useServerLint(serverId: string, snapshotId?: string | null) {
  return useQuery({
    queryKey: qualityKeys.lint(serverId, snapshotId ?? null),
    queryFn: ({ signal }) => api<LintReport>(`/servers/${encodeURIComponent(serverId)}/lint`, { query: { snapshotId }, signal }),
    staleTime: 5_000,
    // The API's answer is final (no snapshot yet, unknown server): only a lost connection is worth another try.
    retry: (count, err) => !isApiError(err) && count < 2,
    // Another snapshot of the same server: keep the last report on screen while it loads.
    placeholderData: (previous, query) => (query?.queryKey[1] === serverId ? previous : undefined),
  });
}
