"use client";

import { lazy, Suspense } from "react";
import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { Loading } from "@/components/ui/spinner";
import { formatMs } from "@/components/stats/chart-card";
import type { MonitorDto } from "@/lib/watch/monitors";
import { useMonitors, useMonitorUptime } from "@/lib/watch/monitors/hooks";
import { IncidentTimeline } from "./incident-timeline";
import { MonitorStateBadge } from "./monitor-state-badge";

const UptimeCharts = lazy(() => import("./uptime-charts"));

/** The dashboard's uptime: each monitor's success rate, p50/p95 over time and incidents, over the last `hours`. */
export function UptimeSection({ hours }: { hours: number }) {
  const monitors = useMonitors();
  if (monitors.error) return <ErrorAlert error={monitors.error} title="Could not load the monitors" />;
  if (!monitors.data?.length) return null;
  return (
    <section aria-labelledby="uptime-section" className="flex flex-col gap-3">
      <h2 id="uptime-section" className="text-sm font-semibold">
        Uptime
      </h2>
      {monitors.data.map((m) => (
        <MonitorUptime key={m.id} monitor={m} hours={hours} />
      ))}
    </section>
  );
}

function MonitorUptime({ monitor: m, hours }: { monitor: MonitorDto; hours: number }) {
  const uptime = useMonitorUptime(m.id, hours);
  const u = uptime.data;
  return (
    <article aria-label={`Uptime of ${m.name}`} data-testid="monitor-uptime" className="flex flex-col gap-2 rounded-lg border bg-raised p-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Link href={`/monitors/${m.id}`} className="font-medium text-accent hover:underline">
          {m.name}
        </Link>
        <MonitorStateBadge monitor={m} />
        {u && (
          <span className="text-xs text-muted" data-testid="monitor-uptime-summary">
            {u.successRate === null ? "no runs" : `${(u.successRate * 100).toFixed(1)}% of ${u.runs.toLocaleString()} runs passed`}, p50 {formatMs(u.p50Ms)}, p95{" "}
            {formatMs(u.p95Ms)}
          </span>
        )}
      </div>
      {uptime.error ? (
        <ErrorAlert error={uptime.error} title="Could not load the uptime" />
      ) : !u ? (
        <Loading />
      ) : (
        <>
          <IncidentTimeline uptime={u} compact />
          <Suspense fallback={<Loading label="Loading charts…" />}>
            <UptimeCharts uptime={u} height={110} />
          </Suspense>
        </>
      )}
    </article>
  );
}
