"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, setWorkspaceId } from "@/lib/api-client";
import type { WorkspaceDto } from "@/lib/workspaces";

/** Switches the workspace the browser works in; every cached query belongs to the old one. */
export function useSwitchWorkspace() {
  const queryClient = useQueryClient();
  return (workspaceId: string | null) => {
    setWorkspaceId(workspaceId);
    void queryClient.resetQueries();
  };
}

export function useCreateWorkspace() {
  const switchWorkspace = useSwitchWorkspace();
  return useMutation({
    mutationFn: (name: string) => api<{ workspace: WorkspaceDto }>("/workspaces", { method: "POST", body: { name } }),
    onSuccess: ({ workspace }) => switchWorkspace(workspace.id),
  });
}
