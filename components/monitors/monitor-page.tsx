"use client";

import { lazy, Suspense, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog } from "@/components/ui/dialog";
import { RoleGate } from "@/components/ui/role-gate";
import { DisabledReason } from "@/components/ui/disabled-reason";
import { Loading, Skeleton } from "@/components/ui/spinner";
import { formatTime } from "@/components/calls/format";
import { isApiError } from "@/lib/core/api-client";
import { useCan, useMe } from "@/lib/identity/auth/hooks";
import type { MonitorDto } from "@/lib/watch/monitors";
import { useDeleteMonitor, useMonitor, useMonitorUptime, useUpdateMonitor } from "@/lib/watch/monitors/hooks";
import { IncidentTimeline } from "./incident-timeline";
import { MonitorActivity } from "./monitor-activity";
import { MonitorForm } from "./monitor-form";
import { MonitorStateBadge } from "./monitor-state-badge";
import { formatInZone, scheduleInWords } from "./schedule";

const RANGES = [
  [1, "1 hour"],
  [24, "24 hours"],
  [168, "7 days"],
] as const;
const UptimeCharts = lazy(() => import("./uptime-charts"));

/** One monitor: schedule, state and open incident, controls, uptime, runs, ticks and incidents. */
export function MonitorPage({ id }: { id: string }) {
  const monitor = useMonitor(id);
  if (monitor.isPending) {
    return (
      <div className="flex flex-col gap-3 p-6">
        <Skeleton className="h-6 w-64" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (monitor.isError) {
    return (
      <div className="p-6">
        {isApiError(monitor.error, "not_found") ? (
          <Alert title="Monitor not found">It was deleted, or it belongs to another workspace.</Alert>
        ) : (
          <ErrorAlert error={monitor.error} title="Could not load the monitor" />
        )}
      </div>
    );
  }
  const m = monitor.data;
  return (
    <div className="flex flex-col gap-5 p-6">
      <Header monitor={m} />
      <ReadOnlyNote monitor={m} />
      <Status monitor={m} />
      <Uptime monitor={m} />
      <MonitorActivity monitor={m} />
    </div>
  );
}

/** Viewers, and members on someone else's monitor, see it all but cannot change it: say why before they try. */
function ReadOnlyNote({ monitor: m }: { monitor: MonitorDto }) {
  const me = useMe();
  const member = useCan("member");
  if (!me.data) return null;
  if (!member.allowed) return <Alert tone="info" title="Read-only for you">{member.reason}</Alert>;
  if (me.data.role !== "member" || m.createdById === me.data.user.id) return null;
  return (
    <Alert tone="info" title="Read-only for you">
      {m.createdByName} made this monitor: only its creator and admins can change it.
    </Alert>
  );
}

function Header({ monitor: m }: { monitor: MonitorDto }) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const update = useUpdateMonitor(m.id);
  const remove = useDeleteMonitor();
  const router = useRouter();
  const me = useMe();
  // A member may change only their own monitors (the API says the same); ReadOnlyNote says why.
  const locked = me.data?.role === "member" && m.createdById !== me.data.user.id;
  const lockedTitle = locked ? "Only its creator and admins can change this monitor" : undefined;

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-56 flex-1">
          <p className="text-xs text-muted">Monitor</p>
          <h1 className="flex flex-wrap items-center gap-2 text-lg font-semibold tracking-tight">
            <span className="truncate">{m.name}</span>
            <MonitorStateBadge monitor={m} />
          </h1>
          <p className="text-sm text-muted">
            Runs <Link href={`/collections/${m.collectionId}`} className="text-accent underline">{m.collectionName}</Link>
            {m.environment ? ` in ${m.environment}` : " with no environment"}, as {m.createdByName}.
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <RoleGate min="member">
            <DisabledReason reason={lockedTitle}>
              <Button busy={update.isPending} onClick={() => update.mutate({ enabled: !m.enabled })}>
                {m.enabled ? "Disable" : "Enable"}
              </Button>
            </DisabledReason>
          </RoleGate>
          <RoleGate min="member">
            <DisabledReason reason={lockedTitle}>
              <Button onClick={() => setEditing(true)}>Edit</Button>
            </DisabledReason>
          </RoleGate>
          <RoleGate min="member">
            <DisabledReason reason={lockedTitle}>
              <Button variant="danger" onClick={() => setDeleting(true)}>
                Delete
              </Button>
            </DisabledReason>
          </RoleGate>
        </div>
      </div>
      <ErrorAlert error={update.error} title={m.enabled ? "Could not disable the monitor" : "Could not enable the monitor"} />
      <Dialog open={editing} onClose={() => setEditing(false)} title={`Edit ${m.name}`}>
        {editing && <MonitorForm monitor={m} onCancel={() => setEditing(false)} onDone={() => setEditing(false)} />}
      </Dialog>
      <ConfirmDialog
        open={deleting}
        title={`Delete ${m.name}?`}
        description="The monitor stops and goes with its ticks and incidents; its runs stay with the collection."
        confirmLabel="Delete monitor"
        busy={remove.isPending}
        error={<ErrorAlert error={remove.error} />}
        onClose={() => setDeleting(false)}
        onConfirm={() => remove.mutate(m.id, { onSuccess: () => router.push("/monitors") })}
      />
    </div>
  );
}

/** The schedule in words, the next run, the open incident and the last skipped tick. */
function Status({ monitor: m }: { monitor: MonitorDto }) {
  const cron = "cron" in m.schedule ? m.schedule : null;
  const incident = m.openIncident;
  return (
    <section aria-label="Status" className="flex flex-col gap-2">
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 rounded-md border bg-panel p-3 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-muted">Schedule</dt>
        <dd data-testid="monitor-schedule">{scheduleInWords(m.schedule)}</dd>
        <dt className="text-muted">Next run</dt>
        <dd data-testid="monitor-next-run">
          {!m.enabled ? (
            "disabled"
          ) : m.nextRunAt ? (
            <time dateTime={m.nextRunAt}>{cron ? `${formatInZone(m.nextRunAt, cron.timeZone)} (${formatTime(m.nextRunAt)} here)` : formatTime(m.nextRunAt)}</time>
          ) : (
            "–"
          )}
        </dd>
        <dt className="text-muted">Alerts</dt>
        <dd>
          {[...m.alerts.mail, ...m.alerts.webhooks].join(", ") || "in the console only"}
          {m.alerts.maxDurationMs ? `; slow after ${m.alerts.maxDurationMs.toLocaleString()} ms` : ""}
        </dd>
      </dl>
      {incident && (
        <Alert tone={incident.kind === "failing" ? "error" : "warning"} title={incident.kind === "failing" ? "Failing" : "Slow"}>
          Open incident since {formatTime(incident.startedAt)}, {incident.runIds.length} run{incident.runIds.length === 1 ? "" : "s"}.{" "}
          {incident.runIds[0] && (
            <Link href={`/runs/${incident.runIds[incident.runIds.length - 1]}`} className="underline">
              Latest run
            </Link>
          )}
        </Alert>
      )}
      {m.lastSkip && (
        <Alert tone="warning" title="Last tick skipped">
          {formatTime(m.lastSkip.at)}: {m.lastSkip.reason}
        </Alert>
      )}
    </section>
  );
}

function Uptime({ monitor: m }: { monitor: MonitorDto }) {
  const [hours, setHours] = useState<number>(24);
  const uptime = useMonitorUptime(m.id, hours);
  return (
    <section aria-labelledby="uptime-heading" className="flex flex-col gap-2">
      <div className="flex items-center gap-3">
        <h2 id="uptime-heading" className="text-sm font-semibold">
          Uptime
        </h2>
        {RANGES.map(([h, label]) => (
          <Button key={h} size="sm" variant={hours === h ? "primary" : "ghost"} aria-pressed={hours === h} onClick={() => setHours(h)}>
            {label}
          </Button>
        ))}
      </div>
      {uptime.error ? (
        <ErrorAlert error={uptime.error} title="Could not load the uptime" />
      ) : !uptime.data ? (
        <Loading />
      ) : (
        <>
          <IncidentTimeline uptime={uptime.data} />
          <Suspense fallback={<Loading label="Loading charts…" />}>
            <UptimeCharts uptime={uptime.data} />
          </Suspense>
        </>
      )}
    </section>
  );
}
