"use client";

import { useState, type FormEvent } from "react";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { formatTime } from "@/components/calls/format";
import type { AuditSinkDto, SinkKind } from "@/lib/core/audit";
import { useAuditSinks, useDeleteAuditSink, useSaveAuditSink, useVerifyAudit } from "@/lib/core/audit/hooks";
import { useCan } from "@/lib/identity/auth/hooks";
import { useUpdateWorkspaceSettings, useWorkspaceSettings } from "@/lib/team/workspaces/hooks";

const KINDS: { value: SinkKind; label: string }[] = [
  { value: "webhook", label: "Webhook (JSON lines)" },
  { value: "splunk-hec", label: "Splunk HEC" },
  { value: "otlp", label: "OTLP logs (HTTP)" },
];
const SECRET_HINT: Record<SinkKind, string> = {
  webhook: "Signs each body: x-switchboard-signature: sha256=<HMAC-SHA256>.",
  "splunk-hec": "The HEC token (sent as Authorization: Splunk <token>).",
  otlp: "Sent as a bearer token.",
};

/** Settings → Audit: streaming sinks with their delivery state, the chain's verification, retention and legal hold. Owners and admins. */
export function AuditStreaming() {
  const admin = useCan("admin");
  if (!admin.allowed) return null;
  return (
    <div className="flex flex-col gap-4">
      <SinksSection />
      <div className="grid gap-4 md:grid-cols-2">
        <VerifySection />
        <RetentionSection />
      </div>
    </div>
  );
}

function SinksSection() {
  const sinks = useAuditSinks();
  const [editing, setEditing] = useState<AuditSinkDto | "new" | null>(null);
  return (
    <section aria-labelledby="audit-streaming-title" className="flex flex-col gap-3 rounded-lg border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="audit-streaming-title" className="text-sm font-semibold">
          Streaming
        </h2>
        {editing === null && (
          <Button size="sm" onClick={() => setEditing("new")}>
            Add a sink
          </Button>
        )}
      </div>
      <p className="text-xs text-muted">Audit events (and, if chosen, call summaries without arguments or results) are sent to each sink in order, retried with backoff until they arrive.</p>
      {sinks.error && <ErrorAlert error={sinks.error} title="Could not load the sinks" />}
      {editing !== null && <SinkForm sink={editing === "new" ? null : editing} onDone={() => setEditing(null)} />}
      {sinks.data && sinks.data.length === 0 && editing === null && <p className="text-sm text-muted">No sink: nothing leaves the console.</p>}
      <ul aria-label="Audit sinks" className="flex flex-col divide-y">
        {sinks.data?.map((sink) => <SinkRow key={sink.id} sink={sink} onEdit={() => setEditing(sink)} />)}
      </ul>
    </section>
  );
}

function SinkRow({ sink, onEdit }: { sink: AuditSinkDto; onEdit: () => void }) {
  const remove = useDeleteAuditSink();
  const [confirming, setConfirming] = useState(false);
  const state = !sink.enabled ? <Badge>paused</Badge> : sink.lastError ? <Badge tone="red">failing</Badge> : sink.lagSeconds > 0 ? <Badge tone="amber">behind</Badge> : <Badge tone="green">up to date</Badge>;
  return (
    <li className="flex flex-col gap-1 py-2 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{KINDS.find((k) => k.value === sink.kind)?.label ?? sink.kind}</span>
        {state}
        <span className="min-w-0 break-all text-muted">{sink.url}</span>
      </div>
      <dl className="flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-muted">
        <div className="flex gap-1"><dt>Sends</dt><dd>{sink.include.join(" + ")}</dd></div>
        <div className="flex gap-1"><dt>Delivered</dt><dd>{sink.delivered}</dd></div>
        <div className="flex gap-1"><dt>Failed attempts</dt><dd>{sink.failed}</dd></div>
        <div className="flex gap-1"><dt>Lag</dt><dd>{sink.lagSeconds} s</dd></div>
        {sink.lastDeliveredAt && <div className="flex gap-1"><dt>Last delivered</dt><dd>{formatTime(sink.lastDeliveredAt)}</dd></div>}
        {sink.nextAttemptAt && <div className="flex gap-1"><dt>Next attempt</dt><dd>{formatTime(sink.nextAttemptAt)}</dd></div>}
      </dl>
      {sink.lastError && <p className="break-words text-xs text-red-600 dark:text-red-400">Last error: {sink.lastError}</p>}
      <div className="flex gap-2">
        <Button size="sm" onClick={onEdit} aria-label={`Edit the sink ${sink.url}`}>
          Edit
        </Button>
        <Button size="sm" variant="danger" onClick={() => setConfirming(true)} aria-label={`Delete the sink ${sink.url}`}>
          Delete
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={() => remove.mutate(sink.id, { onSuccess: () => setConfirming(false) })}
        title="Delete this sink?"
        description={`Nothing more is sent to ${sink.url}. Events it has not received yet are dropped for it.`}
        confirmLabel="Delete"
        busy={remove.isPending}
        error={remove.error ? String((remove.error as Error).message) : undefined}
      />
    </li>
  );
}

function SinkForm({ sink, onDone }: { sink: AuditSinkDto | null; onDone: () => void }) {
  const save = useSaveAuditSink();
  const [kind, setKind] = useState<SinkKind>(sink?.kind ?? "webhook");
  const [url, setUrl] = useState(sink?.url ?? "");
  const [secret, setSecret] = useState("");
  const [removeSecret, setRemoveSecret] = useState(false);
  const [calls, setCalls] = useState(sink?.include.includes("calls") ?? false);
  const [enabled, setEnabled] = useState(sink?.enabled ?? true);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const include: ("audit" | "calls")[] = calls ? ["audit", "calls"] : ["audit"];
    const secretPart = removeSecret ? { secret: null } : secret ? { secret } : {};
    save.mutate({ id: sink?.id, input: { ...(sink ? {} : { kind }), url: url.trim(), include, enabled, ...secretPart } }, { onSuccess: onDone });
  };
  return (
    <form onSubmit={onSubmit} aria-label={sink ? "Edit the sink" : "Add a sink"} className="flex flex-col gap-3 rounded-md border p-3">
      <div className="flex flex-wrap gap-3">
        <Field label="Kind" className="w-full sm:w-56">
          {(p) => (
            <Select {...p} value={kind} disabled={Boolean(sink)} onChange={(e) => setKind(e.target.value as SinkKind)}>
              {KINDS.map((k) => (
                <option key={k.value} value={k.value}>
                  {k.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="URL" required className="w-full sm:flex-1">
          {(p) => <Input {...p} type="url" value={url} maxLength={2000} placeholder="https://siem.example.com/ingest" onChange={(e) => setUrl(e.target.value)} />}
        </Field>
      </div>
      <Field label={sink?.hasSecret ? "New secret (empty keeps the current one)" : "Secret (optional)"} hint={SECRET_HINT[kind]} className="w-full sm:w-96">
        {(p) => <Input {...p} type="password" autoComplete="off" maxLength={1000} value={secret} disabled={removeSecret} onChange={(e) => setSecret(e.target.value)} />}
      </Field>
      <div className="flex flex-wrap gap-4 text-sm">
        {sink?.hasSecret && (
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={removeSecret} onChange={(e) => setRemoveSecret(e.target.checked)} /> Remove the secret
          </label>
        )}
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={calls} onChange={(e) => setCalls(e.target.checked)} /> Also send call summaries
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
        </label>
      </div>
      <div className="flex gap-2">
        <Button type="submit" variant="primary" size="sm" busy={save.isPending} disabled={!url.trim()}>
          {sink ? "Save" : "Add"}
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
      <ErrorAlert error={save.error} />
    </form>
  );
}

function VerifySection() {
  const verify = useVerifyAudit();
  const answer = verify.data;
  return (
    <section aria-labelledby="audit-verify-title" className="flex flex-col gap-3 rounded-lg border p-4">
      <h2 id="audit-verify-title" className="text-sm font-semibold">
        Integrity
      </h2>
      <p className="text-xs text-muted">Each event is hash-chained to the one before: a changed or deleted row breaks the chain.</p>
      <div>
        <Button size="sm" busy={verify.isPending} onClick={() => verify.mutate()}>
          Verify the log
        </Button>
      </div>
      <div aria-live="polite">
        {answer?.ok && (
          <Alert tone="success">
            The chain holds: {answer.checked} event(s) checked{answer.anchorSeq ? `, from #${answer.anchorSeq + 1} (older ones purged)` : ""}
            {answer.unchained ? `; ${answer.unchained} older event(s) predate the chain and are not covered` : ""}.
          </Alert>
        )}
        {answer && !answer.ok && answer.firstBroken && (
          <Alert title="The chain is broken">
            Event #{answer.firstBroken.seq}
            {answer.firstBroken.id !== null ? ` (id ${answer.firstBroken.id})` : ""} {answer.firstBroken.reason === "changed" ? "was changed" : answer.firstBroken.reason === "missing" ? "is missing" : "has no purge record"}; {answer.checked} event(s)
            before it check out.
          </Alert>
        )}
      </div>
      <ErrorAlert error={verify.error} />
    </section>
  );
}

function RetentionSection() {
  const settings = useWorkspaceSettings();
  const w = settings.data;
  // The save lives above the form: a saved change remounts the form (its key), and "Saved." must outlive that.
  const update = useUpdateWorkspaceSettings();
  if (!w) return <section className="rounded-lg border p-4" aria-busy="true" />;
  return <RetentionForm key={`${w.auditRetentionDays}-${w.legalHold}`} days={w.auditRetentionDays} hold={w.legalHold} update={update} />;
}

function RetentionForm({ days, hold, update }: { days: number | null; hold: boolean; update: ReturnType<typeof useUpdateWorkspaceSettings> }) {
  const owner = useCan("owner");
  const [text, setText] = useState(days?.toString() ?? "");
  const [legalHold, setLegalHold] = useState(hold);
  const value = text.trim() === "" ? null : Number(text);
  const error = value !== null && !(Number.isInteger(value) && value >= 1 && value <= 3650) ? "A whole number of days from 1 to 3650, or empty" : null;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    update.mutate({ auditRetentionDays: value, ...(legalHold !== hold ? { legalHold } : {}) });
  };
  return (
    <form onSubmit={onSubmit} aria-labelledby="audit-retention-title" className="flex flex-col gap-3 rounded-lg border p-4">
      <h2 id="audit-retention-title" className="text-sm font-semibold">
        Retention
      </h2>
      <Field label="Keep audit events for (days)" error={error} hint="Empty keeps them forever. Older events are purged by a scheduled job; the chain stays verifiable.">
        {(p) => <Input {...p} inputMode="numeric" placeholder="forever" value={text} onChange={(e) => setText(e.target.value)} />}
      </Field>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={legalHold} disabled={!owner.allowed} onChange={(e) => setLegalHold(e.target.checked)} />
        Legal hold: purge nothing{owner.allowed ? "" : " (owners only)"}
      </label>
      <div className="flex items-center gap-3">
        <Button type="submit" size="sm" variant="primary" busy={update.isPending} disabled={Boolean(error)}>
          Save retention
        </Button>
        {update.isSuccess && <Alert tone="success">Saved.</Alert>}
      </div>
      <ErrorAlert error={update.error} />
    </form>
  );
}
