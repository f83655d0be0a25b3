"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, isApiError } from "@/lib/core/api-client";
import { loadTestKeys, type LoadTestDto, type LoadTestSummary } from "./index";

const enc = encodeURIComponent;

/** What POST /load-tests takes. */
export interface LoadTestInput {
  collectionId?: string;
  call?: { serverId: string; tool: string; arguments: Record<string, unknown> };
  users: number;
  durationSeconds?: number;
  count?: number;
  rampUpSeconds?: number;
  thinkMs?: number;
}

// A 404 (another workspace's, or deleted) will not change on retry.
const retry = (count: number, err: unknown) => !isApiError(err) && count < 2;

export function useLoadTests(enabled = true) {
  return useQuery({
    queryKey: loadTestKeys.list(),
    queryFn: ({ signal }) => api<{ items: LoadTestSummary[] }>("/load-tests", { signal }).then((r) => r.items),
    enabled,
    staleTime: 2_000,
  });
}

/** One load test; the live channel's `load_test` events refresh it about once a second while it runs. */
export function useLoadTest(id: string | null) {
  return useQuery({
    queryKey: loadTestKeys.detail(id ?? ""),
    queryFn: ({ signal }) => api<{ loadTest: LoadTestDto }>(`/load-tests/${enc(id!)}`, { signal }).then((r) => r.loadTest),
    enabled: id !== null,
    retry,
    staleTime: 1_000,
  });
}

export function useStartLoadTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoadTestInput) => api<{ loadTest: LoadTestDto }>("/load-tests", { method: "POST", body: input }).then((r) => r.loadTest),
    onSuccess: (loadTest) => {
      queryClient.setQueryData(loadTestKeys.detail(loadTest.id), loadTest);
      void queryClient.invalidateQueries({ queryKey: loadTestKeys.list(), exact: true });
    },
  });
}

export function useCancelLoadTest(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ loadTest: LoadTestDto }>(`/load-tests/${enc(id)}/cancel`, { method: "POST" }).then((r) => r.loadTest),
    onSuccess: (loadTest) => {
      queryClient.setQueryData(loadTestKeys.detail(id), loadTest);
      void queryClient.invalidateQueries({ queryKey: loadTestKeys.list(), exact: true });
    },
  });
}
