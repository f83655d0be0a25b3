"use client";

import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api, isApiError } from "@/lib/core/api-client";
import type { RunDto } from "@/lib/domains/collections";
import { monitorKeys, type IncidentDto, type MonitorDto, type MonitorSchedule, type MonitorTickDto, type UptimeDto } from "@/lib/watch/monitors";

const enc = encodeURIComponent;

/** What POST /monitors takes (the API contract). */
export interface MonitorInput {
  collectionId: string;
  name?: string;
  environment?: string | null;
  schedule: MonitorSchedule;
  alerts: { mail?: string[]; webhooks?: string[]; maxDurationMs?: number | null };
}

/** PATCH: any of these; `alerts.webhooks` left out keeps the stored (secret) list. */
export type MonitorPatch = Partial<Omit<MonitorInput, "collectionId">> & { enabled?: boolean };

// A 404 (another workspace's, or deleted) will not change on retry.
const retry = (count: number, err: unknown) => !isApiError(err) && count < 2;

export function useMonitors(enabled = true) {
  return useQuery({
    queryKey: monitorKeys.list(),
    queryFn: ({ signal }) => api<{ items: MonitorDto[] }>("/monitors", { signal }).then((r) => r.items),
    enabled,
    staleTime: 5_000,
  });
}

export function useMonitor(id: string) {
  return useQuery({
    queryKey: monitorKeys.detail(id),
    queryFn: ({ signal }) => api<{ monitor: MonitorDto }>(`/monitors/${enc(id)}`, { signal }).then((r) => r.monitor),
    retry,
  });
}

export function useMonitorRuns(id: string) {
  return useQuery({
    queryKey: monitorKeys.runs(id),
    queryFn: ({ signal }) => api<{ items: RunDto[] }>(`/monitors/${enc(id)}/runs`, { signal }).then((r) => r.items),
    staleTime: 2_000,
  });
}

export function useMonitorIncidents(id: string) {
  return useQuery({
    queryKey: monitorKeys.incidents(id),
    queryFn: ({ signal }) => api<{ items: IncidentDto[] }>(`/monitors/${enc(id)}/incidents`, { signal }).then((r) => r.items),
    staleTime: 2_000,
  });
}

export function useMonitorTicks(id: string) {
  return useQuery({
    queryKey: monitorKeys.ticks(id),
    queryFn: ({ signal }) => api<{ items: MonitorTickDto[] }>(`/monitors/${enc(id)}/ticks`, { signal }).then((r) => r.items),
    staleTime: 2_000,
  });
}

export function useMonitorUptime(id: string, hours = 24) {
  return useQuery({
    queryKey: monitorKeys.uptime(id, hours),
    queryFn: ({ signal }) => api<UptimeDto>(`/monitors/${enc(id)}/uptime`, { query: { hours }, signal }),
    staleTime: 5_000,
  });
}

function remember(queryClient: QueryClient, monitor: MonitorDto) {
  queryClient.setQueryData(monitorKeys.detail(monitor.id), monitor);
  void queryClient.invalidateQueries({ queryKey: monitorKeys.list(), exact: true });
}

export function useCreateMonitor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MonitorInput) => api<{ monitor: MonitorDto }>("/monitors", { method: "POST", body: input }).then((r) => r.monitor),
    onSuccess: (monitor) => remember(queryClient, monitor),
  });
}

export function useUpdateMonitor(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: MonitorPatch) => api<{ monitor: MonitorDto }>(`/monitors/${enc(id)}`, { method: "PATCH", body: patch }).then((r) => r.monitor),
    onSuccess: (monitor) => remember(queryClient, monitor),
  });
}

export function useDeleteMonitor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/monitors/${enc(id)}`, { method: "DELETE" }),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: monitorKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: monitorKeys.list(), exact: true });
    },
  });
}
