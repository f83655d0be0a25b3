"use client";

import { useSyncExternalStore } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, getWorkspaceId, setWorkspaceId } from "@/lib/core/api-client";
import { authKeys } from "@/lib/identity/auth";
import { workspaceKeys, type UpdateWorkspace, type WorkspaceDto, type WorkspaceSettingsDto } from "@/lib/team/workspaces";

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

function onStorage(callback: () => void) {
  window.addEventListener("storage", callback);
  return () => window.removeEventListener("storage", callback);
}

/** The browser's workspace for plain links (downloads cannot send `x-workspace-id`); null while rendering on the server. */
export function useWorkspaceId(): string | null {
  return useSyncExternalStore(onStorage, getWorkspaceId, () => null);
}

/** The current workspace's settings and counts. */
export function useWorkspaceSettings() {
  return useQuery({
    queryKey: workspaceKeys.settings(),
    queryFn: () => api<{ workspace: WorkspaceSettingsDto }>("/workspace").then((r) => r.workspace),
  });
}

export function useUpdateWorkspaceSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateWorkspace) => api<{ workspace: WorkspaceSettingsDto }>("/workspace", { method: "PATCH", body: input }).then((r) => r.workspace),
    onSuccess: (workspace) => {
      queryClient.setQueryData(workspaceKeys.settings(), workspace);
      void queryClient.invalidateQueries({ queryKey: authKeys.me() });
    },
  });
}

/** Deletes the current workspace; the browser falls back to the person's first remaining one. */
export function useDeleteWorkspace() {
  const switchWorkspace = useSwitchWorkspace();
  return useMutation({
    mutationFn: (confirm: string) => api<void>("/workspace", { method: "DELETE", body: { confirm } }),
    onSuccess: () => switchWorkspace(null),
  });
}
