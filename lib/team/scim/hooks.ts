"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { memberKeys } from "@/lib/team/members";
import { workspaceKeys } from "@/lib/team/workspaces";
import type { ScimTokenInfo } from "./index";
import type { ScimGroupRoles } from "./schemas";

const scimKeys = { tokens: () => ["scim-tokens"] as const, groupRoles: () => ["scim-group-roles"] as const };

/** The workspace's SCIM tokens (owners only; others get a 403). */
export function useScimTokens(enabled = true) {
  return useQuery({
    enabled,
    queryKey: scimKeys.tokens(),
    queryFn: ({ signal }) => api<{ items: ScimTokenInfo[] }>("/workspace/scim-tokens", { signal }).then((r) => r.items),
    retry: false,
  });
}

/** Creates a SCIM token; the answer carries its secret, this once. */
export function useCreateScimToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api<{ token: ScimTokenInfo; secret: string }>("/workspace/scim-tokens", { method: "POST", body: { name } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: scimKeys.tokens() }),
  });
}

export function useRevokeScimToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/workspace/scim-tokens/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: scimKeys.tokens() }),
  });
}

/** The group display name → role mapping (GET /api/v1/workspace's `scimGroupRoles`). */
export function useScimGroupRoles(enabled = true) {
  return useQuery({
    enabled,
    queryKey: scimKeys.groupRoles(),
    queryFn: ({ signal }) => api<{ workspace: { scimGroupRoles: ScimGroupRoles | null } }>("/workspace", { signal }).then((r) => r.workspace.scimGroupRoles ?? {}),
  });
}

/** Saves the mapping (null clears it); the server re-applies it to every grouped member at once. */
export function useSaveScimGroupRoles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (scimGroupRoles: ScimGroupRoles | null) =>
      api<{ workspace: { scimGroupRoles: ScimGroupRoles | null } }>("/workspace", { method: "PATCH", body: { scimGroupRoles } }).then((r) => r.workspace.scimGroupRoles ?? {}),
    onSuccess: (mapping) => {
      queryClient.setQueryData(scimKeys.groupRoles(), mapping);
      void queryClient.invalidateQueries({ queryKey: memberKeys.all() });
      void queryClient.invalidateQueries({ queryKey: workspaceKeys.settings() });
    },
  });
}
