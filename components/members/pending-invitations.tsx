"use client";

import { useState } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { Skeleton } from "@/components/ui/spinner";
import { RoleGate } from "@/components/ui/role-gate";
import { formatTime } from "@/components/calls/format";
import type { InvitationDto } from "@/lib/team/members";
import { useInvitations, useRevokeInvitation } from "@/lib/team/members/hooks";
import { Cell, Row, Table } from "@/components/ui/table";

/** Invitations nobody has used yet: copy the link again, or revoke it. */
export function PendingInvitations() {
  const invitations = useInvitations();
  const revoke = useRevokeInvitation();
  const [target, setTarget] = useState<InvitationDto | null>(null);

  if (invitations.isPending) return <Skeleton className="h-20 w-full" />;
  if (invitations.error) return <ErrorAlert error={invitations.error} title="Could not load invitations" />;

  return (
    <section aria-labelledby="pending-title" className="flex flex-col gap-2">
      <h2 id="pending-title" className="text-sm font-semibold">
        Pending invitations
      </h2>
      {invitations.data.length === 0 ? (
        <p className="text-sm text-muted">None.</p>
      ) : (
        <Table columns={["Email", "Role", "Invited by", "Expires", { name: "Actions", hidden: true }]}>
            {invitations.data.map((invitation) => (
              <Row key={invitation.id}>
                <Cell className="font-medium">{invitation.email}</Cell>
                <Cell>
                  <Badge>{invitation.role}</Badge>
                </Cell>
                <Cell label="Invited by" className="text-xs text-muted">{invitation.invitedBy.name ?? "someone removed"}</Cell>
                <Cell label="Expires" className="text-xs text-muted">{formatTime(invitation.expiresAt)}</Cell>
                <Cell actions className="flex justify-end gap-1">
                  <CopyButton text={invitation.url} label="Copy link" />
                  <RoleGate min="admin">
                    <Button size="sm" variant="ghost" className="text-red-600 dark:text-red-400" aria-label={`Revoke the invitation for ${invitation.email}`} onClick={() => setTarget(invitation)}>
                      Revoke
                    </Button>
                  </RoleGate>
                </Cell>
              </Row>
            ))}
        </Table>
      )}
      <ConfirmDialog
        open={target !== null}
        onClose={() => {
          setTarget(null);
          revoke.reset();
        }}
        title={`Revoke the invitation for ${target?.email ?? ""}?`}
        description="The link stops working at once. You can invite the address again later."
        confirmLabel="Revoke invitation"
        busy={revoke.isPending}
        error={<ErrorAlert error={revoke.error} />}
        onConfirm={() => target && revoke.mutate(target.id, { onSuccess: () => setTarget(null) })}
      />
    </section>
  );
}
