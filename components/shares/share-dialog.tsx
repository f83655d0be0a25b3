"use client";

import { useState } from "react";
import Link from "next/link";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/disabled-reason";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { RoleGate } from "@/components/ui/role-gate";
import { Loading } from "@/components/ui/spinner";
import { SHARE_EXPIRY_CHOICES, SHARES_DISABLED_MESSAGE } from "@/lib/domains/shares";
import { useCallShares, useCreateShare, useSharePreview } from "@/lib/domains/shares/hooks";
import { ShareLinkList } from "./share-link-list";
import { SharedCallView } from "./shared-call-view";

/** "Share" on a call: members open the dialog; with public links off it stays disabled and says why. */
export function ShareButton({ callId }: { callId: string }) {
  const shares = useCallShares(callId);
  const [open, setOpen] = useState(false);
  if (shares.data && !shares.data.publicSharesEnabled) {
    return (
      <DisabledReason reason={SHARES_DISABLED_MESSAGE} data-testid="share-disabled">
        <Button>Share</Button>
      </DisabledReason>
    );
  }
  return (
    <>
      <RoleGate action="share">
        <Button disabled={!shares.data} onClick={() => setOpen(true)}>
          Share
        </Button>
      </RoleGate>
      <ShareDialog callId={callId} open={open} onClose={() => setOpen(false)} />
    </>
  );
}

function ShareDialog({ callId, open, onClose }: { callId: string; open: boolean; onClose: () => void }) {
  const preview = useSharePreview(callId, open);
  const shares = useCallShares(callId);
  const create = useCreateShare(callId);
  const [days, setDays] = useState("7");

  function close() {
    create.reset();
    onClose();
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Share this call"
      description="Anyone with the link can see this call read-only, without an account. Nothing else of the workspace is reachable from it."
      className="w-[min(64rem,calc(100vw-2rem))]"
      footer={<Button onClick={close}>Close</Button>}
    >
      <section aria-label="Preview" className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">What the link will show</h3>
        {preview.isPending ? (
          <Loading label="Building the preview…" />
        ) : preview.error ? (
          <ErrorAlert error={preview.error} title="Could not build the preview" />
        ) : (
          <>
            {preview.data.masked.length > 0 ? (
              <Alert tone="warning" title={`${preview.data.masked.length} field${preview.data.masked.length === 1 ? "" : "s"} will be masked`}>
                <ul aria-label="Masked fields" className="font-mono text-xs">
                  {preview.data.masked.map((path) => (
                    <li key={path}>
                      <mark className="rounded bg-amber-200 px-1 dark:bg-amber-800">{path}</mark>
                    </li>
                  ))}
                </ul>
              </Alert>
            ) : (
              <p className="text-xs text-muted">No field matches the workspace&apos;s redaction list ({preview.data.redactionKeys.join(", ")}).</p>
            )}
            <div className="max-h-[45vh] overflow-auto rounded-md border p-3" data-testid="share-preview">
              <SharedCallView call={preview.data.call} masked={preview.data.masked} />
            </div>
          </>
        )}
      </section>

      <div className="flex flex-wrap items-end gap-2">
        <ShareExpiry days={days} onChange={setDays} />
        <RoleGate min="member">
          <Button variant="primary" busy={create.isPending} disabled={!preview.data} onClick={() => create.mutate(days ? { expiresInDays: Number(days) } : {})}>
            Create link
          </Button>
        </RoleGate>
      </div>
      <ErrorAlert error={create.error} title="Could not create the link" />
      {create.data && (
        <Alert tone="success" title="Link created" action={<CopyButton text={create.data.url} label="Copy link" />}>
          <Input aria-label="Share link" readOnly value={create.data.url} onFocus={(e) => e.currentTarget.select()} className="font-mono text-xs" />
        </Alert>
      )}

      <section aria-label="Links to this call" className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">Links to this call</h3>
        {shares.data && <ShareLinkList shares={shares.data.items} empty="No working link to this call yet." />}
        <Link href="/settings/shares" className="text-xs text-accent hover:underline">
          All share links of the workspace
        </Link>
      </section>
    </Dialog>
  );
}

/** How long a new share link lives ("" = never), for a call's or a run's share. */
export function ShareExpiry({ days, onChange }: { days: string; onChange: (days: string) => void }) {
  return (
    <Field label="Link expires" className="w-40">
      {(p) => (
        <Select {...p} value={days} onChange={(e) => onChange(e.target.value)}>
          {SHARE_EXPIRY_CHOICES.map((d) => (
            <option key={String(d)} value={d === null ? "" : String(d)}>
              {d === null ? "Never" : d === 1 ? "After 1 day" : `After ${d} days`}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}
