"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, apiUrl } from "@/lib/core/api-client";
import type { CallFilters } from "@/lib/domains/calls/hooks";
import { mockKeys, type MockDto, type MockMatch, type MockSettings } from "./index";

/** What POST /api/v1/mocks takes: one selection (ticked calls, a collection run or the history filters) and how it matches. */
export type MockSelection = { callIds: string[] } | { runId: string } | { filter: CallFilters };
export type CreateMockInput = MockSelection & { name: string; match: MockMatch; ignore?: string[]; latency?: boolean };
export type UpdateMockInput = Partial<Pick<MockDto, "name"> & MockSettings>;

export function useMocks() {
  return useQuery({
    queryKey: mockKeys.list(),
    queryFn: ({ signal }) => api<{ items: MockDto[] }>("/mocks", { signal }).then((r) => r.items),
    staleTime: 5_000,
  });
}

/** One mock with its recordings (arguments shortened). */
export function useMock(id: string | null) {
  return useQuery({
    queryKey: mockKeys.detail(id ?? ""),
    queryFn: ({ signal }) => api<{ mock: MockDto }>(`/mocks/${encodeURIComponent(id!)}`, { signal }).then((r) => r.mock),
    enabled: id !== null,
    staleTime: 5_000,
  });
}

function useMockMutation<V, R>(mutationFn: (input: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: mockKeys.all() }) });
}

export function useCreateMock() {
  return useMockMutation((input: CreateMockInput) => api<{ mock: MockDto }>("/mocks", { method: "POST", body: input }).then((r) => r.mock));
}

export function useUpdateMock(id: string) {
  return useMockMutation((patch: UpdateMockInput) => api<{ mock: MockDto }>(`/mocks/${encodeURIComponent(id)}`, { method: "PATCH", body: patch }).then((r) => r.mock));
}

export function useDeleteMock() {
  return useMockMutation((id: string) => api<void>(`/mocks/${encodeURIComponent(id)}`, { method: "DELETE" }));
}

/** The export's URL for a plain download link: the browser saves the attachment; the workspace rides in the query. */
export function mockExportUrl(id: string, workspaceId: string | null): string {
  return apiUrl(`/mocks/${encodeURIComponent(id)}/export`, { workspace: workspaceId });
}
