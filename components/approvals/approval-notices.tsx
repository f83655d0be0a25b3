"use client";

import { useCallback, useRef, useState } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { effectiveRole, type Role } from "@/lib/core/access";
import type { WorkspaceEvent } from "@/lib/core/events";
import { mayDecide } from "@/lib/domains/approvals";

type ApprovalEvent = Extract<WorkspaceEvent, { type: "approval" }>;
const MAX_NOTICES = 3;

/**
 * Live notices of new held calls the person may decide, anywhere in the console but Approvals
 * itself; a notice goes once its approval is decided or expires.
 */
export function useApprovalNotices(role: string, userId: string) {
  const [notices, setNotices] = useState<ApprovalEvent[]>([]);
  const offered = useRef(new Set<string>());
  const onPage = usePathname() === "/approvals";
  const offer = useCallback(
    (event: ApprovalEvent) => {
      if (event.status !== "pending") return setNotices((list) => list.filter((n) => n.approvalId !== event.approvalId));
      if (offered.current.has(event.approvalId)) return;
      offered.current.add(event.approvalId);
      if (onPage || event.requesterId === userId || !mayDecide(effectiveRole(role, undefined), event.approverRoles as Role[])) return;
      setNotices((list) => [event, ...list].slice(0, MAX_NOTICES));
    },
    [onPage, role, userId],
  );
  const dismiss = useCallback((approvalId: string) => setNotices((list) => list.filter((n) => n.approvalId !== approvalId)), []);
  return { notices: onPage ? [] : notices, offer, dismiss };
}

/** The notices, bottom left (full width on a phone); the live region is always there so each one is announced. */
export function ApprovalNotices({ notices, dismiss }: { notices: ApprovalEvent[]; dismiss: (approvalId: string) => void }) {
  return (
    <div role="status" aria-live="polite" aria-label="Approval notices" className="pointer-events-none fixed bottom-4 left-4 z-40 flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2 md:left-[16rem]">
      {notices.map((n) => (
        <div key={n.approvalId} data-testid="approval-notice" className="pointer-events-auto flex items-start gap-3 rounded-lg border border-amber-300 bg-raised p-3 text-sm shadow-lg dark:border-amber-800">
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <p className="font-semibold text-amber-800 dark:text-amber-300">Approval needed</p>
            <p className="break-words">
              {n.requester ?? "A caller"} wants to call <span className="font-mono">{n.name}</span> on {n.serverName}.
            </p>
            <Link href="/approvals" className="self-start font-medium text-accent hover:underline" onClick={() => dismiss(n.approvalId)}>
              Review<span className="sr-only"> the call of {n.name}</span>
            </Link>
          </div>
          <button type="button" className="rounded p-1 text-muted hover:bg-hover hover:text-fg" aria-label="Dismiss this notice" onClick={() => dismiss(n.approvalId)}>
            <svg aria-hidden viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <path d="M6 6l12 12M18 6 6 18" />
            </svg>
          </button>
        </div>
      ))}
    </div>
  );
}
