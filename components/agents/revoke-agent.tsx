"use client";

import { useState } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/disabled-reason";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { AgentDto } from "@/lib/domains/agents";
import { useRevokeAgent } from "@/lib/domains/agents/hooks";
import { useCan, useMe } from "@/lib/identity/auth/hooks";

/**
 * "Revoke" (named "Revoke <agent>") with a confirmation; nothing for an agent already revoked.
 * Admins revoke any agent, members only the ones they paired (the API says the same).
 */
export function RevokeAgentButton({ agent, onRevoked }: { agent: Pick<AgentDto, "id" | "name" | "status" | "createdBy">; onRevoked?: () => void }) {
  const revoke = useRevokeAgent();
  const [open, setOpen] = useState(false);
  const admin = useCan("admin");
  const me = useMe();
  const member = useCan("member");
  if (agent.status === "revoked") return null;
  const allowed = admin.allowed || (member.allowed && agent.createdBy !== null && agent.createdBy === me.data?.user.id);
  const reason = allowed ? undefined : member.allowed ? "Members can revoke only the agents they paired" : member.reason || admin.reason;

  return (
    <>
      <DisabledReason reason={reason}>
        <Button size="sm" variant="ghost" className="text-red-700 dark:text-red-400" aria-label={`Revoke ${agent.name}`} onClick={() => setOpen(true)}>
          Revoke
        </Button>
      </DisabledReason>
      <ConfirmDialog
        open={open}
        onClose={() => {
          setOpen(false);
          revoke.reset();
        }}
        title={`Revoke “${agent.name}”?`}
        description="Its token stops working at once: the agent disconnects and stops, and its servers are archived. Their history stays readable; pair again and they come back."
        confirmLabel="Revoke agent"
        busy={revoke.isPending}
        error={<ErrorAlert error={revoke.error} />}
        onConfirm={() =>
          revoke.mutate(agent.id, {
            onSuccess: () => {
              setOpen(false);
              onRevoked?.();
            },
          })
        }
      />
    </>
  );
}
