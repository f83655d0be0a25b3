"use client";

import { useState } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { AgentDto } from "@/lib/agents";
import { useRevokeAgent } from "@/lib/agents/hooks";
import { RoleGate } from "@/components/ui/role-gate";

/** "Revoke" (named "Revoke <agent>") with a confirmation; nothing for an agent already revoked. */
export function RevokeAgentButton({ agent, onRevoked }: { agent: Pick<AgentDto, "id" | "name" | "status">; onRevoked?: () => void }) {
  const revoke = useRevokeAgent();
  const [open, setOpen] = useState(false);
  if (agent.status === "revoked") return null;

  return (
    <>
      <RoleGate min="member">
        <Button size="sm" variant="ghost" className="text-red-600 dark:text-red-400" aria-label={`Revoke ${agent.name}`} onClick={() => setOpen(true)}>
          Revoke
        </Button>
      </RoleGate>
      <ConfirmDialog
        open={open}
        onClose={() => {
          setOpen(false);
          revoke.reset();
        }}
        title={`Revoke “${agent.name}”?`}
        description="Its token stops working at once: the agent disconnects and stops, and its servers go offline. Their history stays; pair again to bring them back."
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
