"use client";

import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { patchCall, refreshHistory } from "@/lib/domains/calls/hooks";
import { reviewKeys, type NoteDto, type SavedViewDto, type TagCount, type ViewFilters } from "./index";

const callPath = (callId: string) => `/calls/${encodeURIComponent(callId)}`;

export function useNotes(callId: string) {
  return useQuery({
    queryKey: reviewKeys.notes(callId),
    queryFn: ({ signal }) => api<{ items: NoteDto[] }>(`${callPath(callId)}/notes`, { signal }).then((r) => r.items),
  });
}

async function notesChanged(queryClient: QueryClient, callId: string, change: (notes: NoteDto[]) => NoteDto[]) {
  const key = reviewKeys.notes(callId);
  // A read of the list still in flight began before this write: its answer would drop the change.
  await queryClient.cancelQueries({ queryKey: key });
  const notes = change(currentNotes(queryClient, callId));
  queryClient.setQueryData(key, notes);
  patchCall(queryClient, callId, { noteCount: notes.length });
  refreshHistory(queryClient);
  // The cancelled read may have been the first: the list is read again, after the write.
  void queryClient.invalidateQueries({ queryKey: key });
}

function currentNotes(queryClient: QueryClient, callId: string): NoteDto[] {
  return queryClient.getQueryData<NoteDto[]>(reviewKeys.notes(callId)) ?? [];
}

export function useAddNote(callId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => api<{ note: NoteDto }>(`${callPath(callId)}/notes`, { method: "POST", body: { body } }).then((r) => r.note),
    onSuccess: (note) => notesChanged(queryClient, callId, (notes) => [...notes, note]),
  });
}

export function useEditNote(callId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: string }) =>
      api<{ note: NoteDto }>(`/notes/${encodeURIComponent(id)}`, { method: "PATCH", body: { body } }).then((r) => r.note),
    onSuccess: (note) => notesChanged(queryClient, callId, (notes) => notes.map((n) => (n.id === note.id ? note : n))),
  });
}

export function useDeleteNote(callId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/notes/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: (_, id) => notesChanged(queryClient, callId, (notes) => notes.filter((n) => n.id !== id)),
  });
}

/** The workspace's tags with their counts (autocomplete, the history filter). */
export function useTags() {
  return useQuery({
    queryKey: reviewKeys.tags(),
    queryFn: ({ signal }) => api<{ items: TagCount[] }>("/tags", { signal }).then((r) => r.items),
    staleTime: 10_000,
  });
}

/** Replaces a call's tags; the answer is the normalised set. */
export function useSetTags(callId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tags: string[]) => api<{ tags: string[] }>(`${callPath(callId)}/tags`, { method: "PUT", body: { tags } }).then((r) => r.tags),
    onSuccess: (tags) => {
      patchCall(queryClient, callId, { tags });
      refreshHistory(queryClient);
      void queryClient.invalidateQueries({ queryKey: reviewKeys.tags() });
    },
  });
}

/** Stars or unstars a call for the signed-in person; the star shows at once and is undone on failure. */
export function useStar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ callId, starred }: { callId: string; starred: boolean }) =>
      api<{ starred: boolean }>(`${callPath(callId)}/star`, { method: starred ? "PUT" : "DELETE" }),
    onMutate: ({ callId, starred }) => patchCall(queryClient, callId, { starred }),
    onError: (_, { callId, starred }) => patchCall(queryClient, callId, { starred: !starred }),
    onSettled: () => refreshHistory(queryClient),
  });
}

export function useViews() {
  return useQuery({
    queryKey: reviewKeys.views(),
    queryFn: ({ signal }) => api<{ items: SavedViewDto[] }>("/views", { signal }).then((r) => r.items),
  });
}

export function useCreateView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; filters: ViewFilters }) => api<{ view: SavedViewDto }>("/views", { method: "POST", body: input }).then((r) => r.view),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reviewKeys.views() }),
  });
}

export function useDeleteView() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/views/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reviewKeys.views() }),
  });
}
