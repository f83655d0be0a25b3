"use client";

import { ErrorAlert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/spinner";
import { effectiveRole } from "@/lib/core/access";
import { useMe } from "@/lib/identity/auth/hooks";
import { useApprovals } from "@/lib/domains/approvals/hooks";
import { ApprovalCard, DecidedApproval } from "./approval-card";

/** Calls held for a person: pending ones first (approve or deny), then the decided ones. */
export function ApprovalsPage() {
  const me = useMe();
  const pending = useApprovals("pending");
  const decided = useApprovals("decided");
  const role = effectiveRole(me.data?.role ?? "viewer", undefined);
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="approvals-pending" className="flex flex-col gap-2">
        <h2 id="approvals-pending" className="text-sm font-semibold">
          Waiting for a decision{pending.data ? ` (${pending.data.length})` : ""}
        </h2>
        {pending.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : pending.error ? (
          <ErrorAlert error={pending.error} title="Could not load approvals" />
        ) : pending.data.length === 0 ? (
          <EmptyState title="Nothing is waiting">A call that an approve rule holds shows up here, with its caller, tool and arguments.</EmptyState>
        ) : (
          <ol aria-label="Waiting for a decision" className="flex flex-col gap-2">
            {pending.data.map((a) => (
              <ApprovalCard key={a.id} approval={a} role={role} userId={me.data?.user.id ?? null} />
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="approvals-decided" className="flex flex-col gap-2">
        <h2 id="approvals-decided" className="text-sm font-semibold">
          Decided
        </h2>
        {decided.isPending ? (
          <Skeleton className="h-14 w-full" />
        ) : decided.error ? (
          <ErrorAlert error={decided.error} title="Could not load decided approvals" />
        ) : decided.data.length === 0 ? (
          <p className="text-sm text-muted">None yet.</p>
        ) : (
          <ol aria-label="Decided" className="flex flex-col gap-2">
            {decided.data.map((a) => (
              <DecidedApproval key={a.id} approval={a} />
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
