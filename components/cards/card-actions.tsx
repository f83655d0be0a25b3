"use client";

import { useState } from "react";
import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { DisabledReason } from "@/components/ui/disabled-reason";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { CallStatusBadge } from "@/components/calls/call-status-badge";
import { prettyJson } from "@/components/calls/format";
import { useRenderSource } from "@/components/calls/render-context";
import { isOpenableUrl, type CardAction } from "@/lib/domains/cards";
import { useRunCall } from "@/lib/domains/calls/hooks";
import { RoleGate } from "@/components/ui/role-gate";

/** One card action: copy at once; open a link or call a tool only after a confirmation that shows exactly what. */
export function CardActionButton({ action }: { action: CardAction }) {
  const { readOnly } = useRenderSource();
  if (readOnly) {
    return (
      <DisabledReason reason="Card actions do not run in a shared view">
        <Button size="sm">{action.label}</Button>
      </DisabledReason>
    );
  }
  if (action.type === "copy") return <CopyButton text={action.value} label={action.label} />;
  if (action.type === "open-link") return <OpenLinkAction label={action.label} url={action.url} />;
  return <CallToolAction label={action.label} tool={action.tool} args={action.arguments ?? {}} />;
}

function OpenLinkAction({ label, url }: { label: string; url: string }) {
  const [open, setOpen] = useState(false);
  const ok = isOpenableUrl(url);
  return (
    <>
      <DisabledReason reason={ok ? null : "Only http and https links are opened"}>
        <Button size="sm" onClick={() => setOpen(true)}>
          {label} ↗
        </Button>
      </DisabledReason>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Open this link?"
        description="The card asks to open this address in a new tab. Check it before you go."
        footer={
          <>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <a href={url} target="_blank" rel="noopener noreferrer" onClick={() => setOpen(false)} className={buttonClasses("primary", "md")}>
              Open link
            </a>
          </>
        }
      >
        <p aria-label="Full URL" className="rounded bg-panel p-2 font-mono text-xs break-all">
          {url}
        </p>
      </Dialog>
    </>
  );
}

function CallToolAction({ label, tool, args }: { label: string; tool: string; args: Record<string, unknown> }) {
  const { serverId, callId } = useRenderSource();
  const [open, setOpen] = useState(false);
  const run = useRunCall();
  const call = run.data;
  const usable = !!serverId && !!callId;
  return (
    <>
      <RoleGate min="member">
        <Button size="sm" disabled={!usable} busy={run.isPending} onClick={() => setOpen(true)}>
          {label}
        </Button>
      </RoleGate>
      {call && (
        <span className="inline-flex items-center gap-1.5 text-xs" data-testid="card-call">
          <CallStatusBadge status={call.status} isError={call.isError} />
          <Link href={`/calls/${call.id}`} className="text-accent hover:underline">
            Open the {tool} call
          </Link>
        </span>
      )}
      <ErrorAlert error={run.error} title={`Could not call ${tool}`} />
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Call ${tool}?`}
        description="The card asks to call this tool on the same server. The call is recorded in history as made from this card."
        footer={
          <>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button
              variant="primary"
              onClick={() => {
                setOpen(false);
                if (serverId && callId) {
                  run.mutate({ serverId, method: "tools/call", body: { name: tool, arguments: args, origin: "card", parentCallId: callId } });
                }
              }}
            >
              Call tool
            </Button>
          </>
        }
      >
        <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
          <dt className="text-muted">Tool</dt>
          <dd className="font-mono" aria-label="Tool name">
            {tool}
          </dd>
          <dt className="text-muted">Arguments</dt>
          <dd>
            <pre aria-label="Tool arguments" className="max-h-64 overflow-auto rounded bg-panel p-2 font-mono">
              {prettyJson(args)}
            </pre>
          </dd>
        </dl>
      </Dialog>
    </>
  );
}
