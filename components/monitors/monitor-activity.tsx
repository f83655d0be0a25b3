"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/spinner";
import { Cell, Row, Table } from "@/components/ui/table";
import { formatDuration, formatTime } from "@/components/calls/format";
import { RunStatusBadge } from "@/components/collections/run-status-badge";
import { AlertList } from "@/components/alerts/alert-list";
import { useAlerts } from "@/lib/watch/alerts/hooks";
import type { MonitorDto } from "@/lib/watch/monitors";
import { useMonitorIncidents, useMonitorRuns, useMonitorTicks } from "@/lib/watch/monitors/hooks";

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

interface Listing<T> {
  isPending: boolean;
  error: Error | null;
  data: T[] | undefined;
}

/** One titled list of the monitor's page: loading, the error, an empty line, or the items. */
function Panel<T>({ slug, title, note, list, what, empty, children, footer }: { slug: string; title: string; note?: string; list: Listing<T>; what: string; empty: string; children: (items: T[]) => ReactNode; footer?: ReactNode }) {
  return (
    <section aria-labelledby={`monitor-${slug}`} className="flex flex-col gap-2">
      <h2 id={`monitor-${slug}`} className="text-sm font-semibold">
        {title}
      </h2>
      {note && <p className="text-xs text-muted">{note}</p>}
      {list.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : list.error ? (
        <ErrorAlert error={list.error} title={`Could not load the ${what}`} />
      ) : !list.data?.length ? (
        <p className="text-xs text-muted">{empty}</p>
      ) : (
        children(list.data)
      )}
      {footer}
    </section>
  );
}

function Runs({ id }: { id: string }) {
  return (
    <Panel slug="runs" title="Runs" list={useMonitorRuns(id)} what="runs" empty="No runs yet.">
      {(runs) => (
        <Table columns={["Run", "Started", { name: "Steps", align: "right" }, { name: "Duration", align: "right" }]} aria-label="Monitor runs">
          {runs.map((r) => (
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
    </Panel>
  );
}

/** This monitor's alerts (the workspace's recent ones, filtered here): what was sent and whether it got through. */
function Alerts({ id }: { id: string }) {
  const alerts = useAlerts();
  const mine = { isPending: alerts.isPending, error: alerts.error, data: alerts.data?.filter((a) => a.monitor?.id === id).slice(0, 10) };
  const all = (
    <Link href="/alerts" className="self-start text-xs text-accent hover:underline">
      All alerts
    </Link>
  );
  return (
    <Panel slug="alerts" title="Alerts" list={mine} what="alerts" empty="No alerts sent." footer={all}>
      {(items) => <AlertList alerts={items} label="Alerts of this monitor" />}
    </Panel>
  );
}

function Incidents({ id }: { id: string }) {
  return (
    <Panel slug="incidents" title="Incidents" list={useMonitorIncidents(id)} what="incidents" empty="No incidents.">
      {(incidents) => (
        <ol aria-label="Incident history" className="flex flex-col border-l pl-3">
          {incidents.map((i) => (
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
    </Panel>
  );
}

function Ticks({ id }: { id: string }) {
  return (
    <Panel slug="ticks" title="Ticks" note="Each due time, run once by one instance, or skipped with the reason." list={useMonitorTicks(id)} what="ticks" empty="No ticks yet.">
      {(ticks) => (
        <Table columns={["Due", "Outcome", "Instance"]} aria-label="Monitor ticks">
          {ticks.slice(0, 50).map((t) => (
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
    </Panel>
  );
}
