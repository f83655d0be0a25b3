"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { virtualServerKeys, type VirtualServerDto, type VirtualTool } from "./index";

/** What the create and update routes take (the API contract). */
export interface VirtualServerInput {
  name: string;
  tools: VirtualTool[];
}

export function useVirtualServers() {
  return useQuery({
    queryKey: virtualServerKeys.list(),
    queryFn: ({ signal }) => api<{ items: VirtualServerDto[] }>("/virtual-servers", { signal }).then((r) => r.items),
    staleTime: 5_000,
  });
}

function useVirtualServerMutation<V>(mutationFn: (input: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: virtualServerKeys.all() }) });
}

export function useCreateVirtualServer() {
  return useVirtualServerMutation((input: VirtualServerInput) => api<{ virtualServer: VirtualServerDto }>("/virtual-servers", { method: "POST", body: input }).then((r) => r.virtualServer));
}

export function useUpdateVirtualServer(id: string) {
  return useVirtualServerMutation((patch: Partial<VirtualServerInput>) =>
    api<{ virtualServer: VirtualServerDto }>(`/virtual-servers/${encodeURIComponent(id)}`, { method: "PATCH", body: patch }).then((r) => r.virtualServer),
  );
}

export function useDeleteVirtualServer() {
  return useVirtualServerMutation((id: string) => api<void>(`/virtual-servers/${encodeURIComponent(id)}`, { method: "DELETE" }));
}
