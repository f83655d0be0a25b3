"use client";

import { useCallback } from "react";
import { usePathname } from "next/navigation";
import { effectiveRole, type Role } from "@/lib/core/access";
import type { WorkspaceEvent } from "@/lib/core/events";
import { mayDecide } from "@/lib/domains/approvals";
import { NoticeStack, useNotices } from "@/components/ui/notice-stack";

type ApprovalEvent = Extract<WorkspaceEvent, { type: "approval" }>;
const keyOf = (event: ApprovalEvent) => event.approvalId;

/**
 * Live notices of new held calls the person may decide, anywhere in the console but Approvals
 * itself; a notice goes once its approval is decided or expires.
 */
export function useApprovalNotices(role: string, userId: string) {
  const onPage = usePathname() === "/approvals";
  const { notices, offer: show, dismiss } = useNotices(keyOf, onPage);
  const offer = useCallback(
    (event: ApprovalEvent) => {
      if (event.status !== "pending") return dismiss(event.approvalId);
      show(event, !onPage && event.requesterId !== userId && mayDecide(effectiveRole(role, undefined), event.approverRoles as Role[]));
    },
    [dismiss, onPage, role, show, userId],
  );
  return { notices, offer, dismiss };
}

/** The approval notices, bottom left (beside the sidebar on a wide screen). */
export function ApprovalNotices({ notices, dismiss }: { notices: ApprovalEvent[]; dismiss: (approvalId: string) => void }) {
  const items = notices.map((n) => ({
    key: n.approvalId,
    title: "Approval needed",
    body: (
      <>
        {n.requester ?? "A caller"} wants to call <span className="font-mono">{n.name}</span> on {n.serverName}.
      </>
    ),
    href: "/approvals",
    action: "Review",
    actionDetail: `the call of ${n.name}`,
  }));
  return <NoticeStack label="Approval notices" notices={items} dismiss={dismiss} tone="warning" className="left-4 md:left-[16rem]" testId="approval-notice" />;
}
