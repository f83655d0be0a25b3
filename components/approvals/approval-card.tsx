"use client";

import { useEffect, useId, useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/alert";
import { Field, Textarea } from "@/components/ui/field";
import { formatTime } from "@/components/calls/format";
import type { Role } from "@/lib/core/access";
import { approversInWords, mayDecide, type ApprovalDto, type ApprovalStatus } from "@/lib/domains/approvals";
import { useDecideApproval } from "@/lib/domains/approvals/hooks";

const TONE: Record<ApprovalStatus, BadgeTone> = { pending: "amber", approved: "green", denied: "red", expired: "neutral" };

/** One held call: who calls what with which (masked) arguments, under which rule, and how long is left. */
export function ApprovalCard({ approval: a, role, userId }: { approval: ApprovalDto; role: Role; userId: string | null }) {
  const decide = useDecideApproval();
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);
  const headingId = useId();
  const own = a.requester.id !== null && a.requester.id === userId;
  const allowed = mayDecide(role, a.approverRoles);
  const deny = () => {
    if (!reason.trim()) return setReasonError("Write why: the caller is told it");
    decide.mutate({ id: a.id, approve: false, reason: reason.trim() });
  };
  return (
    <li data-testid="approval" data-status={a.status} aria-labelledby={headingId} className="flex flex-col gap-2 rounded-md border bg-panel p-3 text-sm">
      <Summary approval={a} headingId={headingId} />
      <Arguments params={a.params} />
      <p className="text-xs text-muted">
        Rule <span className="font-medium text-fg">{a.rule.name}</span> · <TimeLeft expiresAt={a.expiresAt} />
      </p>
      {!allowed ? (
        <p className="text-xs text-muted">Only {approversInWords(a.approverRoles)} may decide.</p>
      ) : denying ? (
        <form
          noValidate
          aria-label={`Deny ${a.name}`}
          className="flex flex-col gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            deny();
          }}
        >
          <Field label="Reason for denying" required error={reasonError} hint="The caller receives it in the error.">
            {(props) => <Textarea {...props} rows={2} value={reason} maxLength={1000} data-autofocus onChange={(e) => (setReason(e.target.value), setReasonError(null))} />}
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="danger" busy={decide.isPending}>
              Deny call
            </Button>
            <Button onClick={() => setDenying(false)} disabled={decide.isPending}>
              Back
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="primary" busy={decide.isPending} disabled={own} title={own ? "You cannot approve your own call" : undefined} onClick={() => decide.mutate({ id: a.id, approve: true })}>
            Approve<span className="sr-only"> {a.name}</span>
          </Button>
          <Button variant="danger" disabled={decide.isPending} onClick={() => setDenying(true)}>
            Deny<span className="sr-only"> {a.name}</span>
          </Button>
          {own && <span className="text-xs text-muted">Your own call: another approver must approve it.</span>}
        </div>
      )}
      {decide.error && <ErrorAlert error={decide.error} title="Could not record the decision" />}
    </li>
  );
}

/** A decided (or expired) approval: the outcome, by whom and why. */
export function DecidedApproval({ approval: a }: { approval: ApprovalDto }) {
  const headingId = useId();
  return (
    <li data-testid="approval" data-status={a.status} aria-labelledby={headingId} className="flex flex-col gap-1.5 rounded-md border bg-panel p-3 text-sm">
      <Summary approval={a} headingId={headingId} />
      <p className="text-xs break-words text-muted">
        {a.status === "expired" ? "Expired" : `${a.status === "approved" ? "Approved" : "Denied"} by ${a.decidedBy?.name ?? "someone"}`}
        {a.decidedAt && <> · {formatTime(a.decidedAt)}</>}
        {a.reason && <> · {a.reason}</>} · rule {a.rule.name}
      </p>
    </li>
  );
}

function Summary({ approval: a, headingId }: { approval: ApprovalDto; headingId: string }) {
  const who = a.requester.name ?? (a.origin === "monitor" ? "A monitor" : "Unknown caller");
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <Badge tone={TONE[a.status]} testId="approval-status">
        {a.status}
      </Badge>
      <h3 id={headingId} className="min-w-0 font-medium break-all">
        <span className="text-muted">{a.serverName} ·</span> <span className="font-mono">{a.name}</span>
      </h3>
      <span className="text-xs text-muted">
        by {who}
        {a.client ? ` via ${a.client}` : ""}
      </span>
      <time dateTime={a.createdAt} className="ml-auto text-xs text-muted">
        {formatTime(a.createdAt)}
      </time>
    </div>
  );
}

function Arguments({ params }: { params: unknown }) {
  return (
    <details open className="min-w-0">
      <summary className="cursor-pointer text-xs font-medium text-muted">Arguments</summary>
      <pre data-testid="approval-arguments" className="mt-1 max-h-48 overflow-auto rounded bg-hover/50 p-2 font-mono text-xs break-all whitespace-pre-wrap">
        {JSON.stringify(params, null, 2)}
      </pre>
    </details>
  );
}

/** "2 min 10 s left", refreshed every second while shown. */
function TimeLeft({ expiresAt }: { expiresAt: string }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setTimeout(() => setNow(Date.now()), 1000);
    return () => clearTimeout(timer);
  }, [now]);
  const left = Math.max(0, Math.round((new Date(expiresAt).getTime() - now) / 1000));
  const words = left === 0 ? "expiring" : left >= 60 ? `${Math.floor(left / 60)} min ${left % 60} s left` : `${left} s left`;
  return <time dateTime={expiresAt}>{words}</time>;
}
