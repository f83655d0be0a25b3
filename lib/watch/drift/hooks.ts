"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { driftKeys, type DiffDto, type PinningDto, type SnapshotDto, type WatchDto, type WatchInput } from "./index";

const base = (serverId: string) => `/servers/${encodeURIComponent(serverId)}/capabilities`;

/** A server's capability snapshots, newest first, and its pinning (a connect may add one at any time: kept briefly). */
export function useCapabilityHistory(serverId: string) {
  return useQuery({
    queryKey: driftKeys.history(serverId),
    queryFn: ({ signal }) => api<{ items: SnapshotDto[]; pinning: PinningDto }>(`${base(serverId)}/history`, { signal }),
    staleTime: 5_000,
  });
}

/** Approves a snapshot's definitions: a pinned server serves them from now on (admins). */
export function useApproveSnapshot(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (snapshotId: string) => api<{ pinning: PinningDto }>(`${base(serverId)}/approve`, { method: "POST", body: { snapshotId } }).then((r) => r.pinning),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: driftKeys.all(serverId) }),
  });
}

/** The changes between two snapshots (null ids: the previous and the latest). */
export function useCapabilityDiff(serverId: string, from: string | null, to: string | null, enabled = true) {
  const query = new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}) }).toString();
  return useQuery({
    queryKey: driftKeys.diff(serverId, from, to),
    queryFn: ({ signal }) => api<DiffDto>(`${base(serverId)}/diff${query ? `?${query}` : ""}`, { signal }),
    enabled,
  });
}

export function useCapabilityWatch(serverId: string) {
  return useQuery({
    queryKey: driftKeys.watch(serverId),
    queryFn: ({ signal }) => api<{ watch: WatchDto | null }>(`${base(serverId)}/watch`, { signal }).then((r) => r.watch),
  });
}

/** Watch (input) or stop watching (null). */
export function useSetCapabilityWatch(serverId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WatchInput | null) =>
      api<{ watch: WatchDto | null }>(`${base(serverId)}/watch`, input ? { method: "PUT", body: input } : { method: "DELETE" }).then((r) => r.watch),
    onSuccess: (watch) => queryClient.setQueryData(driftKeys.watch(serverId), watch),
  });
}
