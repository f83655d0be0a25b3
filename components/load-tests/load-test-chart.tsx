"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { COLORS } from "@/components/stats/chart-card";
import type { LoadTestPoint } from "@/lib/domains/load-tests";

const axis = { stroke: COLORS.muted, fontSize: 11, tickLine: false } as const;
const tooltipStyle = { background: "var(--raised)", border: "1px solid var(--line)", fontSize: 12 };
const OTHER = { calls: "#7c3aed", p95: "#be185d" };

/** Calls/s (left axis) and p95 (right axis) second by second; with `other`, the compared test's too. */
export default function LoadTestChart({ series, other, height = 240 }: { series: LoadTestPoint[]; other?: LoadTestPoint[]; height?: number }) {
  const length = Math.max(series.length, other?.length ?? 0);
  const data = Array.from({ length }, (_, t) => ({ t, calls: series[t]?.calls, p95: series[t]?.p95, otherCalls: other?.[t]?.calls, otherP95: other?.[t]?.p95 }));
  return (
    <ResponsiveContainer width="100%" height={height}>
      <LineChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid vertical={false} stroke={COLORS.grid} />
        <XAxis dataKey="t" {...axis} tickFormatter={(t: number) => `${t}s`} minTickGap={24} />
        <YAxis yAxisId="calls" {...axis} width={48} allowDecimals={false} />
        <YAxis yAxisId="ms" orientation="right" {...axis} width={56} tickFormatter={(v: number) => `${v} ms`} />
        <Tooltip contentStyle={tooltipStyle} labelFormatter={(t) => `${t} s`} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Line yAxisId="calls" type="linear" dataKey="calls" name="calls/s" stroke={COLORS.calls} dot={false} isAnimationActive={false} />
        <Line yAxisId="ms" type="linear" dataKey="p95" name="p95" stroke={COLORS.p95} dot={false} connectNulls isAnimationActive={false} />
        {other && <Line yAxisId="calls" type="linear" dataKey="otherCalls" name="calls/s (compared)" stroke={OTHER.calls} strokeDasharray="4 3" dot={false} isAnimationActive={false} />}
        {other && <Line yAxisId="ms" type="linear" dataKey="otherP95" name="p95 (compared)" stroke={OTHER.p95} strokeDasharray="4 3" dot={false} connectNulls isAnimationActive={false} />}
      </LineChart>
    </ResponsiveContainer>
  );
}
