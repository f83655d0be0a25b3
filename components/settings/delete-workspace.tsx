"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import type { WorkspaceSettingsDto } from "@/lib/team/workspaces";
import { useDeleteWorkspace } from "@/lib/team/workspaces/hooks";

/** The danger zone: deleting the workspace takes its servers, history and members with it. */
export function DeleteWorkspace({ name, counts }: { name: string; counts: WorkspaceSettingsDto["counts"] }) {
  const router = useRouter();
  const remove = useDeleteWorkspace();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");

  function close() {
    setOpen(false);
    setTyped("");
    remove.reset();
  }

  return (
    <section aria-labelledby="danger-title" className="flex flex-col gap-2 rounded-lg border border-red-300 p-4 dark:border-red-900">
      <h2 id="danger-title" className="text-sm font-semibold text-red-700 dark:text-red-400">
        Delete this workspace
      </h2>
      <p className="text-sm text-muted">Its servers, agents, every recorded call, share links and the audit log go with it, for everyone. This cannot be undone.</p>
      <div>
        <RoleGate min="owner">
          <Button variant="danger" onClick={() => setOpen(true)}>
            Delete workspace…
          </Button>
        </RoleGate>
      </div>
      <Dialog
        open={open}
        onClose={close}
        title={`Delete ${name}?`}
        description={`${counts.servers} servers, ${counts.calls} calls and ${counts.members} memberships will be deleted.`}
        footer={
          <>
            <Button onClick={close}>Cancel</Button>
            <Button variant="danger" busy={remove.isPending} disabled={typed !== name} onClick={() => remove.mutate(typed, { onSuccess: () => router.replace("/servers") })}>
              Delete workspace
            </Button>
          </>
        }
      >
        <Field label={`Type “${name}” to confirm`}>{(p) => <Input {...p} data-autofocus value={typed} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />}</Field>
        <ErrorAlert error={remove.error} />
      </Dialog>
    </section>
  );
}
