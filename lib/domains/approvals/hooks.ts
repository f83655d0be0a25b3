"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/core/api-client";
import { approvalKeys, type ApprovalDto, type ListApprovals } from "./index";

/** The workspace's approvals; the console's event stream refetches them on `approval` events. */
export function useApprovals(status: ListApprovals["status"]) {
  return useQuery({
    queryKey: approvalKeys.list({ status }),
    queryFn: ({ signal }) => api<{ items: ApprovalDto[] }>("/approvals", { query: { status }, signal }).then((r) => r.items),
    staleTime: 0,
  });
}

/** Approves (reason optional) or denies (reason required) one held call. */
export function useDecideApproval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, approve, reason }: { id: string; approve: boolean; reason?: string }) =>
      api<{ approval: ApprovalDto }>(`/approvals/${id}/${approve ? "approve" : "deny"}`, { method: "POST", body: reason ? { reason } : {} }).then((r) => r.approval),
    onSettled: () => queryClient.invalidateQueries({ queryKey: approvalKeys.all() }),
  });
}
