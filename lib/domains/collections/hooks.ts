"use client";

import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api, apiUrl, isApiError } from "@/lib/core/api-client";
import { collectionKeys, type CollectionDto, type CollectionFile, type EnvironmentDto, type RunDto, type RunSummary, type Step } from "@/lib/domains/collections";

const enc = encodeURIComponent;

/** What the create route takes (the API contract); steps without an id get one on the server. */
export interface CollectionInput {
  name: string;
  description?: string | null;
  steps: (Omit<Step, "id"> & { id?: string })[];
  variables?: Record<string, unknown>;
}

export interface EnvironmentInput {
  name: string;
  values?: Record<string, unknown>;
  /** Write-only: a name set to null removes that secret, a name left out keeps it. */
  secrets?: Record<string, string | null>;
  servers?: Record<string, string>;
}

export interface StartRun {
  environment?: string;
  variables?: Record<string, unknown>;
  stopOnFailure?: boolean;
}

// A 404 (another workspace's, or deleted) will not change on retry.
const retry = (count: number, err: unknown) => !isApiError(err) && count < 2;

export function useCollections(enabled = true) {
  return useQuery({
    queryKey: collectionKeys.list(),
    queryFn: ({ signal }) => api<{ items: CollectionDto[] }>("/collections", { signal }).then((r) => r.items),
    enabled,
    staleTime: 5_000,
  });
}

export function useCollection(id: string) {
  return useQuery({
    queryKey: collectionKeys.detail(id),
    queryFn: ({ signal }) => api<{ collection: CollectionDto }>(`/collections/${enc(id)}`, { signal }).then((r) => r.collection),
    retry,
  });
}

function remember(queryClient: QueryClient, collection: CollectionDto) {
  queryClient.setQueryData(collectionKeys.detail(collection.id), collection);
  void queryClient.invalidateQueries({ queryKey: collectionKeys.list(), exact: true });
}

export function useCreateCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CollectionInput) => api<{ collection: CollectionDto }>("/collections", { method: "POST", body: input }).then((r) => r.collection),
    onSuccess: (collection) => remember(queryClient, collection),
  });
}

/** PATCH a collection: any of name, description, steps (the whole ordered list), variables. */
export function useUpdateCollection(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<CollectionInput>) =>
      api<{ collection: CollectionDto }>(`/collections/${enc(id)}`, { method: "PATCH", body: patch }).then((r) => r.collection),
    onSuccess: (collection) => remember(queryClient, collection),
  });
}

/** Appends a step to a collection, read fresh first so that a concurrent edit is not overwritten with a stale list. */
export function useAddStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ collectionId, step }: { collectionId: string; step: CollectionInput["steps"][number] }) => {
      const { collection } = await api<{ collection: CollectionDto }>(`/collections/${enc(collectionId)}`);
      return api<{ collection: CollectionDto }>(`/collections/${enc(collectionId)}`, { method: "PATCH", body: { steps: [...collection.steps, step] } }).then((r) => r.collection);
    },
    onSuccess: (collection) => remember(queryClient, collection),
  });
}

export function useDeleteCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/collections/${enc(id)}`, { method: "DELETE" }),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: collectionKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: collectionKeys.list(), exact: true });
    },
  });
}

export function useImportCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, name }: { file: CollectionFile; name?: string }) =>
      api<{ collection: CollectionDto }>("/collections/import", { method: "POST", body: file, query: { name } }).then((r) => r.collection),
    onSuccess: (collection) => remember(queryClient, collection),
  });
}

/** The export link: a plain download (the workspace rides in the query, as history's export does). */
export function collectionExportUrl(id: string, workspaceId: string | null): string {
  return apiUrl(`/collections/${enc(id)}/export`, { workspace: workspaceId });
}

/** A collection's runs, newest first: people's, or with `origin` one origin's (`"monitor"`) or `"any"`. */
export function useCollectionRuns(id: string, { enabled = true, origin }: { enabled?: boolean; origin?: string } = {}) {
  return useQuery({
    queryKey: [...collectionKeys.runs(id), origin ?? null],
    queryFn: ({ signal }) => api<{ items: RunSummary[] }>(`/collections/${enc(id)}/runs`, { query: { origin }, signal }).then((r) => r.items),
    enabled,
    // A run in progress changes its row; look again until none is running.
    refetchInterval: (query) => (query.state.data?.some((r) => r.status === "running") ? 2_000 : false),
    staleTime: 2_000,
  });
}

/**
 * One run. While it runs it is polled every second; the run events (useServerEvents) refresh it
 * sooner when they arrive, the polling is the fallback when the event stream is down.
 */
export function useRun(id: string | null) {
  return useQuery({
    queryKey: collectionKeys.run(id ?? ""),
    queryFn: ({ signal }) => api<{ run: RunDto }>(`/runs/${enc(id!)}`, { signal }).then((r) => r.run),
    enabled: !!id,
    retry,
    refetchInterval: (query) => (query.state.data?.status === "running" ? 1_000 : false),
  });
}

export function useStartRun(collectionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StartRun) =>
      api<{ run: RunDto }>(`/collections/${enc(collectionId)}/runs`, { method: "POST", body: { ...input, origin: "console" } }).then((r) => r.run),
    onSuccess: (run) => {
      queryClient.setQueryData(collectionKeys.run(run.id), run);
      void queryClient.invalidateQueries({ queryKey: collectionKeys.runs(collectionId) });
      void queryClient.invalidateQueries({ queryKey: collectionKeys.list(), exact: true });
    },
  });
}

/** Refreshes what shows a run after a run event: the run itself, its collection's runs and the list. */
export function refreshRun(queryClient: QueryClient, runId: string, collectionId?: string) {
  void queryClient.invalidateQueries({ queryKey: collectionKeys.run(runId), exact: true });
  if (collectionId) void queryClient.invalidateQueries({ queryKey: collectionKeys.runs(collectionId) });
  void queryClient.invalidateQueries({ queryKey: collectionKeys.list(), exact: true });
}

/** Keeps a run step's result as its collection step's snapshot (POST /runs/:id/steps/:index/accept). */
export function useAcceptSnapshot(runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (index: number) => api<{ collection: CollectionDto }>(`/runs/${enc(runId)}/steps/${index}/accept`, { method: "POST" }).then((r) => r.collection),
    onSuccess: (collection) => remember(queryClient, collection),
  });
}

export function useEnvironments(enabled = true) {
  return useQuery({
    queryKey: collectionKeys.environments(),
    queryFn: ({ signal }) => api<{ items: EnvironmentDto[] }>("/environments", { signal }).then((r) => r.items),
    enabled,
  });
}

function useEnvironmentMutation<V>(mutationFn: (input: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: collectionKeys.environments() }) });
}

export function useCreateEnvironment() {
  return useEnvironmentMutation((input: EnvironmentInput) =>
    api<{ environment: EnvironmentDto }>("/environments", { method: "POST", body: input }).then((r) => r.environment),
  );
}

export function useUpdateEnvironment(id: string) {
  return useEnvironmentMutation((patch: Partial<EnvironmentInput>) =>
    api<{ environment: EnvironmentDto }>(`/environments/${enc(id)}`, { method: "PATCH", body: patch }).then((r) => r.environment),
  );
}

export function useDeleteEnvironment() {
  return useEnvironmentMutation((id: string) => api<void>(`/environments/${enc(id)}`, { method: "DELETE" }));
}
