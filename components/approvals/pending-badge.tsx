"use client";

import { cn } from "@/components/ui/cn";
import { effectiveRole } from "@/lib/core/access";
import { mayDecide } from "@/lib/domains/approvals";
import { useApprovals } from "@/lib/domains/approvals/hooks";
import { useMe } from "@/lib/identity/auth/hooks";

/** The navigation's count of held calls the signed-in person may decide (not their own); nothing at zero. */
export function PendingApprovalsBadge({ className }: { className?: string }) {
  const me = useMe();
  const pending = useApprovals("pending");
  const role = effectiveRole(me.data?.role ?? "viewer", undefined);
  const count = (pending.data ?? []).filter((a) => mayDecide(role, a.approverRoles) && a.requester.id !== me.data?.user.id).length;
  if (!count) return null;
  return (
    <span data-testid="pending-approvals" className={cn("inline-flex min-w-5 items-center justify-center rounded-full bg-amber-600 px-1.5 text-[11px] leading-5 font-semibold text-white", className)}>
      <span aria-hidden>{count > 99 ? "99+" : count}</span>
      <span className="sr-only">
        , {count} call{count === 1 ? "" : "s"} waiting for your approval
      </span>
    </span>
  );
}
