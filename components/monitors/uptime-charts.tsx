"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { COLORS, formatMs, formatTickMs } from "@/components/stats/chart-card";
import { OneLineTick } from "@/components/stats/one-line-tick";
import type { UptimeDto } from "@/lib/watch/monitors";

const axis = { stroke: COLORS.muted, fontSize: 11, tickLine: false, tick: OneLineTick } as const;
// A bucket with runs shows even when its neighbours have none (a monitor created an hour ago).
const DOT = { r: 2 };
const tooltipStyle = { background: "var(--raised)", border: "1px solid var(--line)", fontSize: 12 };

function points(uptime: UptimeDto) {
  const short = uptime.hours <= 48;
  return uptime.buckets.map((b) => ({
    label: short
      ? new Date(b.start).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })
      : new Date(b.start).toLocaleDateString(undefined, { month: "short", day: "numeric" }),
    rate: b.runs ? (b.passed / b.runs) * 100 : null,
    p50: b.p50Ms,
    p95: b.p95Ms,
  }));
}

/** A monitor's success rate and p50/p95 run duration per bucket (recharts, loaded apart like the dashboard's). */
export default function UptimeCharts({ uptime, height = 160 }: { uptime: UptimeDto; height?: number }) {
  const data = points(uptime);
  return (
    <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
      <figure aria-label="Success rate over time" className="flex min-w-0 flex-col gap-1 rounded-lg border bg-raised p-3">
        <figcaption className="text-xs text-muted">
          Success rate: {uptime.successRate === null ? "no runs" : `${(uptime.successRate * 100).toFixed(1)}% of ${uptime.runs.toLocaleString()} runs`}
        </figcaption>
        <ResponsiveContainer width="100%" height={height}>
          <LineChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: -12 }}>
            <CartesianGrid vertical={false} stroke={COLORS.grid} />
            <XAxis dataKey="label" {...axis} minTickGap={24} />
            <YAxis domain={[0, 100]} {...axis} tickFormatter={(v: number) => `${v}%`} />
            <Tooltip formatter={(v) => `${Number(v).toFixed(1)}%`} contentStyle={tooltipStyle} />
            <Line type="stepAfter" dataKey="rate" name="success rate" stroke={COLORS.calls} dot={DOT} connectNulls isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </figure>
      <figure aria-label="Run duration over time" className="flex min-w-0 flex-col gap-1 rounded-lg border bg-raised p-3">
        <figcaption className="text-xs text-muted">
          Run duration: p50 {formatMs(uptime.p50Ms)}, p95 {formatMs(uptime.p95Ms)}
        </figcaption>
        <ResponsiveContainer width="100%" height={height}>
          <LineChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid vertical={false} stroke={COLORS.grid} />
            <XAxis dataKey="label" {...axis} minTickGap={24} />
            <YAxis {...axis} width={56} tickFormatter={formatTickMs} />
            <Tooltip formatter={(v) => formatMs(Number(v))} contentStyle={tooltipStyle} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Line type="monotone" dataKey="p50" name="p50" stroke={COLORS.p50} dot={DOT} connectNulls isAnimationActive={false} />
            <Line type="monotone" dataKey="p95" name="p95" stroke={COLORS.p95} dot={DOT} connectNulls isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </figure>
    </div>
  );
}
