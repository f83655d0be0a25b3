"use client";

import { useSyncExternalStore } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, getWorkspaceId, setWorkspaceId } from "@/lib/api-client";
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

function onStorage(callback: () => void) {
  window.addEventListener("storage", callback);
  return () => window.removeEventListener("storage", callback);
}

/** The browser's workspace for plain links (downloads cannot send `x-workspace-id`); null while rendering on the server. */
export function useWorkspaceId(): string | null {
  return useSyncExternalStore(onStorage, getWorkspaceId, () => null);
}
