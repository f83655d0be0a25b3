"use client";

import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/spinner";
import { Cell, Row, Table } from "@/components/ui/table";
import { formatDuration, formatTime } from "@/components/calls/format";
import { RunStatusBadge } from "@/components/collections/run-status-badge";
import { AlertList } from "@/components/alerts/alert-list";
import { useAlerts } from "@/lib/alerts/hooks";
import type { MonitorDto } from "@/lib/monitors";
import { useMonitorIncidents, useMonitorRuns, useMonitorTicks } from "@/lib/monitors/hooks";

const durationOf = (startedAt: string, finishedAt: string | null) => (finishedAt ? Date.parse(finishedAt) - Date.parse(startedAt) : null);

/** The monitor's recent runs (each opens its run page), its ticks with skip reasons and its incidents. */
export function MonitorActivity({ monitor }: { monitor: MonitorDto }) {
  return (
    <div className="grid grid-cols-1 gap-5 xl:grid-cols-2">
      <div className="flex flex-col gap-5">
        <Runs id={monitor.id} />
        <Alerts id={monitor.id} />
      </div>
      <div className="flex flex-col gap-5">
        <Incidents id={monitor.id} />
        <Ticks id={monitor.id} />
      </div>
    </div>
  );
}

function Loading() {
  return <Skeleton className="h-24 w-full" />;
}

function Runs({ id }: { id: string }) {
  const runs = useMonitorRuns(id);
  return (
    <section aria-labelledby="monitor-runs" className="flex flex-col gap-2">
      <h2 id="monitor-runs" className="text-sm font-semibold">
        Runs
      </h2>
      {runs.isPending ? (
        <Loading />
      ) : runs.error ? (
        <ErrorAlert error={runs.error} title="Could not load the runs" />
      ) : runs.data.length === 0 ? (
        <p className="text-xs text-muted">No runs yet.</p>
      ) : (
        <Table columns={["Run", "Started", { name: "Steps", align: "right" }, { name: "Duration", align: "right" }]} aria-label="Monitor runs">
          {runs.data.map((r) => (
            <Row key={r.id} hover data-testid="monitor-run">
              <Cell>
                <Link href={`/runs/${r.id}`} aria-label={`Run ${r.status} at ${formatTime(r.startedAt, true)}`} className="hover:underline">
                  <RunStatusBadge status={r.status} />
                </Link>
              </Cell>
              <Cell label="Started" className="text-xs text-muted">
                <time dateTime={r.startedAt}>{formatTime(r.startedAt, true)}</time>
              </Cell>
              <Cell label="Steps" className="text-right text-xs tabular-nums">
                {r.passed}/{r.total}
              </Cell>
              <Cell label="Duration" className="text-right text-xs tabular-nums">
                {formatDuration(durationOf(r.startedAt, r.finishedAt))}
              </Cell>
            </Row>
          ))}
        </Table>
      )}
    </section>
  );
}

/** This monitor's alerts (the workspace's recent ones, filtered here): what was sent and whether it got through. */
function Alerts({ id }: { id: string }) {
  const alerts = useAlerts();
  const mine = alerts.data?.filter((a) => a.monitor?.id === id).slice(0, 10);
  return (
    <section aria-labelledby="monitor-alerts" className="flex flex-col gap-2">
      <h2 id="monitor-alerts" className="text-sm font-semibold">
        Alerts
      </h2>
      {alerts.isPending ? (
        <Loading />
      ) : alerts.error ? (
        <ErrorAlert error={alerts.error} title="Could not load the alerts" />
      ) : !mine?.length ? (
        <p className="text-xs text-muted">No alerts sent.</p>
      ) : (
        <AlertList alerts={mine} label="Alerts of this monitor" />
      )}
      <Link href="/alerts" className="self-start text-xs text-accent hover:underline">
        All alerts
      </Link>
    </section>
  );
}

function Incidents({ id }: { id: string }) {
  const incidents = useMonitorIncidents(id);
  return (
    <section aria-labelledby="monitor-incidents" className="flex flex-col gap-2">
      <h2 id="monitor-incidents" className="text-sm font-semibold">
        Incidents
      </h2>
      {incidents.isPending ? (
        <Loading />
      ) : incidents.error ? (
        <ErrorAlert error={incidents.error} title="Could not load the incidents" />
      ) : incidents.data.length === 0 ? (
        <p className="text-xs text-muted">No incidents.</p>
      ) : (
        <ol aria-label="Incident history" className="flex flex-col border-l pl-3">
          {incidents.data.map((i) => (
            <li key={i.id} data-testid="monitor-incident" data-open={i.endedAt ? "false" : "true"} className="relative flex flex-col gap-0.5 pb-3 text-xs">
              <span aria-hidden className={`absolute top-1 -left-[17px] size-2 rounded-full ${i.kind === "failing" ? "bg-red-500" : "bg-amber-500"}`} />
              <span className="flex items-center gap-2">
                <Badge tone={i.kind === "failing" ? "red" : "amber"}>{i.kind}</Badge>
                {i.endedAt ? <Badge tone="green">resolved</Badge> : <Badge tone="red">open</Badge>}
              </span>
              <span className="text-muted">
                {formatTime(i.startedAt)} → {i.endedAt ? formatTime(i.endedAt) : "now"}
                {i.endedAt ? ` (${formatDuration(durationOf(i.startedAt, i.endedAt))})` : ""}
              </span>
              <span className="flex flex-wrap gap-x-2">
                {i.runIds.slice(0, 5).map((runId, n) => (
                  <Link key={runId} href={`/runs/${runId}`} className="text-accent hover:underline">
                    run {n + 1}
                  </Link>
                ))}
                {i.runIds.length > 5 && <span className="text-muted">and {i.runIds.length - 5} more</span>}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Ticks({ id }: { id: string }) {
  const ticks = useMonitorTicks(id);
  return (
    <section aria-labelledby="monitor-ticks" className="flex flex-col gap-2">
      <h2 id="monitor-ticks" className="text-sm font-semibold">
        Ticks
      </h2>
      <p className="text-xs text-muted">Each due time, run once by one instance, or skipped with the reason.</p>
      {ticks.isPending ? (
        <Loading />
      ) : ticks.error ? (
        <ErrorAlert error={ticks.error} title="Could not load the ticks" />
      ) : ticks.data.length === 0 ? (
        <p className="text-xs text-muted">No ticks yet.</p>
      ) : (
        <Table columns={["Due", "Outcome", "Instance"]} aria-label="Monitor ticks">
          {ticks.data.slice(0, 50).map((t) => (
            <Row key={t.id} data-testid="monitor-tick">
              <Cell className="text-xs text-muted">
                <time dateTime={t.dueAt}>{formatTime(t.dueAt, true)}</time>
              </Cell>
              <Cell label="Outcome" className="text-xs">
                {t.outcome === "ran" ? (
                  t.runId ? (
                    <Link href={`/runs/${t.runId}`} className="text-accent hover:underline">
                      ran
                    </Link>
                  ) : (
                    "ran"
                  )
                ) : (
                  <span>
                    <Badge tone="amber">skipped</Badge> {t.reason}
                  </span>
                )}
              </Cell>
              <Cell label="Instance" className="font-mono text-[11px] text-muted">
                {t.instanceId.slice(0, 8)}
              </Cell>
            </Row>
          ))}
        </Table>
      )}
    </section>
  );
}
