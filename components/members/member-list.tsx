"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Skeleton } from "@/components/ui/spinner";
import { RoleGate } from "@/components/ui/role-gate";
import { formatTime } from "@/components/calls/format";
import type { MemberDto } from "@/lib/team/members";
import { useCan, useMe } from "@/lib/identity/auth/hooks";
import { useLeaveWorkspace, useMembers, useRemoveMember, useTransferOwnership, useUpdateMemberRole } from "@/lib/team/members/hooks";
import { RoleSelect } from "./role-select";
import { Cell, Row, Table } from "@/components/ui/table";

type Pending = { kind: "remove" | "transfer"; member: MemberDto } | { kind: "leave" } | null;

/** Members with role and last activity; role changes, removal, transfer of ownership and leaving. */
export function MemberList() {
  const router = useRouter();
  const me = useMe();
  const members = useMembers();
  const owner = useCan("owner").allowed;
  const update = useUpdateMemberRole();
  const remove = useRemoveMember();
  const transfer = useTransferOwnership();
  const leave = useLeaveWorkspace();
  const [pending, setPending] = useState<Pending>(null);

  if (members.isPending) return <Skeleton className="h-32 w-full" />;
  if (members.error) return <ErrorAlert error={members.error} title="Could not load members" />;
  const myId = me.data?.user.id;
  const workspaceName = me.data?.workspace.name ?? "this workspace";

  function close() {
    setPending(null);
    remove.reset();
    transfer.reset();
    leave.reset();
  }

  return (
    <section aria-labelledby="members-title" className="flex flex-col gap-2">
      <h2 id="members-title" className="text-sm font-semibold">
        Members ({members.data.length})
      </h2>
      <Table columns={["Name", "Role", "Joined", "Last active", { name: "Actions", hidden: true }]}>
          {members.data.map((member) => {
            const self = member.id === myId;
            // Admins manage everyone below owner; only owners touch owners.
            const gate = member.role === "owner" ? "owner" : "admin";
            return (
              <Row key={member.id} data-testid={`member-${member.email}`}>
                <Cell>
                  <span className="font-medium">{member.name}</span> {self && <Badge tone="blue">you</Badge>}
                  <span className="block text-xs text-muted">{member.email}</span>
                </Cell>
                <Cell>
                  <RoleGate min={gate}>
                    <RoleSelect
                      aria-label={`Role of ${member.name}`}
                      className="w-28"
                      value={member.role}
                      ownerAllowed={owner}
                      disabled={update.isPending}
                      onChange={(role) => update.mutate({ userId: member.id, role })}
                    />
                  </RoleGate>
                </Cell>
                <Cell label="Joined" className="text-xs text-muted">{formatTime(member.joinedAt)}</Cell>
                <Cell label="Last active" className="text-xs text-muted">{member.lastActiveAt ? formatTime(member.lastActiveAt) : "never"}</Cell>
                <Cell actions className="text-right whitespace-nowrap">
                  {self ? (
                    <Button size="sm" variant="ghost" onClick={() => setPending({ kind: "leave" })}>
                      Leave workspace
                    </Button>
                  ) : (
                    <>
                      <RoleGate min="owner" hide>
                        <Button size="sm" variant="ghost" onClick={() => setPending({ kind: "transfer", member })}>
                          Transfer ownership
                        </Button>
                      </RoleGate>
                      <RoleGate min={gate}>
                        <Button size="sm" variant="ghost" className="text-red-600 dark:text-red-400" aria-label={`Remove ${member.name}`} onClick={() => setPending({ kind: "remove", member })}>
                          Remove
                        </Button>
                      </RoleGate>
                    </>
                  )}
                </Cell>
              </Row>
            );
          })}
      </Table>
      <ErrorAlert error={update.error} />
      <ConfirmDialog
        open={pending?.kind === "remove"}
        onClose={close}
        title={`Remove ${pending?.kind === "remove" ? pending.member.name : ""}?`}
        description="They lose access at once: their browser sessions and API tokens for this workspace stop working. Their calls stay in history."
        confirmLabel="Remove member"
        busy={remove.isPending}
        error={<ErrorAlert error={remove.error} />}
        onConfirm={() => pending?.kind === "remove" && remove.mutate(pending.member.id, { onSuccess: close })}
      />
      <ConfirmDialog
        open={pending?.kind === "transfer"}
        onClose={close}
        title={`Transfer ownership to ${pending?.kind === "transfer" ? pending.member.name : ""}?`}
        description="They become an owner and you become an admin. Only an owner can give the role back."
        confirmLabel="Transfer ownership"
        busy={transfer.isPending}
        error={<ErrorAlert error={transfer.error} />}
        onConfirm={() => pending?.kind === "transfer" && transfer.mutate(pending.member.id, { onSuccess: close })}
      />
      <ConfirmDialog
        open={pending?.kind === "leave"}
        onClose={close}
        title={`Leave ${workspaceName}?`}
        description="You lose access at once and your API tokens for it are revoked. To come back, someone must invite you again."
        confirmLabel="Leave workspace"
        busy={leave.isPending}
        error={<ErrorAlert error={leave.error} />}
        onConfirm={() => leave.mutate(undefined, { onSuccess: () => router.replace("/servers") })}
      />
    </section>
  );
}
