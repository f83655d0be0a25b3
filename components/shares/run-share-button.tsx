"use client";

import { useState } from "react";
import Link from "next/link";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { Input } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import { ShareExpiry } from "./share-dialog";
import { useCreateRunShare } from "@/lib/domains/shares/hooks";

/** "Share" on a run page: members create a public, read-only, redacted link to the run. */
export function RunShareButton({ runId }: { runId: string }) {
  const [open, setOpen] = useState(false);
  const create = useCreateRunShare(runId);
  const [days, setDays] = useState("7");
  const close = () => {
    create.reset();
    setOpen(false);
  };
  return (
    <>
      <RoleGate action="share">
        <Button onClick={() => setOpen(true)}>Share</Button>
      </RoleGate>
      <Dialog
        open={open}
        onClose={close}
        title="Share this run"
        description="Anyone with the link sees the run's steps, statuses, assertion outcomes and diffs read-only, without an account; values the workspace's redaction list masks are hidden, and nothing else of the workspace is reachable from it."
        footer={<Button onClick={close}>Close</Button>}
      >
        <div className="flex flex-wrap items-end gap-2">
          <ShareExpiry days={days} onChange={setDays} />
          <Button variant="primary" busy={create.isPending} onClick={() => create.mutate(days ? { expiresInDays: Number(days) } : {})}>
            Create link
          </Button>
        </div>
        <ErrorAlert error={create.error} title="Could not create the link" />
        {create.data && (
          <Alert tone="success" title="Link created" action={<CopyButton text={create.data.url} label="Copy link" />}>
            <Input aria-label="Share link" readOnly value={create.data.url} onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs" />
          </Alert>
        )}
        <Link href="/settings/shares" className="text-xs text-accent hover:underline">
          All share links of the workspace
        </Link>
      </Dialog>
    </>
  );
}
