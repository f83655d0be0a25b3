"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, setWorkspaceId } from "@/lib/core/api-client";
import type { Role } from "@/lib/core/access";
import { authKeys } from "@/lib/identity/auth";
import { workspaceKeys } from "@/lib/team/workspaces";
import {
  memberKeys,
  type AcceptedInvitationDto,
  type CreateInvitation,
  type CreatedInvitationDto,
  type InvitationDto,
  type InvitationPreviewDto,
  type MemberDto,
} from "./index";

export function useMembers() {
  return useQuery({
    queryKey: memberKeys.all(),
    queryFn: () => api<{ items: MemberDto[] }>("/members").then((r) => r.items),
  });
}

/** After a change to memberships: the list, the caller's own role and the workspace's counts. */
function useInvalidateTeam() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: memberKeys.all() });
    void queryClient.invalidateQueries({ queryKey: memberKeys.invitations() });
    void queryClient.invalidateQueries({ queryKey: authKeys.me() });
    void queryClient.invalidateQueries({ queryKey: workspaceKeys.settings() });
  };
}

export function useUpdateMemberRole() {
  const invalidate = useInvalidateTeam();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      api<{ member: MemberDto }>(`/members/${encodeURIComponent(userId)}`, { method: "PATCH", body: { role } }).then((r) => r.member),
    onSuccess: invalidate,
  });
}

export function useRemoveMember() {
  const invalidate = useInvalidateTeam();
  return useMutation({
    mutationFn: (userId: string) => api<void>(`/members/${encodeURIComponent(userId)}`, { method: "DELETE" }),
    onSuccess: invalidate,
  });
}

export function useTransferOwnership() {
  const invalidate = useInvalidateTeam();
  return useMutation({
    mutationFn: (userId: string) => api<{ owner: MemberDto; previousOwner: MemberDto }>("/members/transfer", { method: "POST", body: { userId } }),
    onSuccess: invalidate,
  });
}

/** Leaves the current workspace; the browser falls back to the person's first remaining one. */
export function useLeaveWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>("/members/leave", { method: "POST" }),
    onSuccess: () => {
      setWorkspaceId(null);
      void queryClient.resetQueries();
    },
  });
}

export function useInvitations(enabled = true) {
  return useQuery({
    queryKey: memberKeys.invitations(),
    queryFn: () => api<{ items: InvitationDto[] }>("/invitations").then((r) => r.items),
    enabled,
  });
}

export function useCreateInvitation() {
  const invalidate = useInvalidateTeam();
  return useMutation({
    mutationFn: (input: CreateInvitation) => api<{ invitation: CreatedInvitationDto }>("/invitations", { method: "POST", body: input }).then((r) => r.invitation),
    onSuccess: invalidate,
  });
}

export function useRevokeInvitation() {
  const invalidate = useInvalidateTeam();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/invitations/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: invalidate,
  });
}

/** What an invitation link offers (no account needed); refreshed after signing in or out. */
export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: memberKeys.preview(token),
    queryFn: () => api<{ invitation: InvitationPreviewDto }>("/invitations/preview", { method: "POST", body: { token } }).then((r) => r.invitation),
    retry: false,
    staleTime: 0,
  });
}

/** Accepts an invitation and makes its workspace the one the browser works in. */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { token: string; name?: string; password?: string }) => api<AcceptedInvitationDto>("/invitations/accept", { method: "POST", body: input }),
    onSuccess: (accepted) => {
      setWorkspaceId(accepted.workspace.id);
      queryClient.clear();
    },
  });
}
