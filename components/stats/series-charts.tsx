"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { BUCKETS, historyHref, type Stats } from "@/lib/domains/stats";
import { answeredOnly, ChartCard, COLORS, formatMs, formatRate, formatTickMs, plural } from "./chart-card";
import { OneLineTick } from "./one-line-tick";

type Point = { start: number; label: string; ok: number; errors: number; timeouts: number; interrupted: number; rate: number | null; p50: number | null; p95: number | null };

function tickLabel(ms: number, bucketSeconds: number): string {
  const d = new Date(ms);
  return bucketSeconds >= 86_400
    ? d.toLocaleDateString(undefined, { month: "short", day: "numeric" })
    : bucketSeconds >= 10_800
      ? d.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit" })
      : d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

const axis = { stroke: COLORS.muted, fontSize: 11, tickLine: false, tick: OneLineTick } as const;
const tooltipStyle = { background: "var(--raised)", border: "1px solid var(--line)", fontSize: 12 };
const FAILED = { errors: "error", timeouts: "timeout", interrupted: "interrupted" } as const;

/** Calls (failures apart by kind), failure rate and p50/p95 duration over time; a bar opens that bucket's calls in history. */
export function SeriesCharts({ stats }: { stats: Stats }) {
  const router = useRouter();
  const width = BUCKETS[stats.bucket];
  const from = Date.parse(stats.from);
  const to = Date.parse(stats.to);
  const points: Point[] = stats.series.map((p) => {
    const start = Date.parse(p.start);
    const { errors, timeouts, interrupted } = p;
    return { start, label: tickLabel(start, width), ok: p.count - p.failures, errors, timeouts, interrupted, rate: p.count ? (p.failures / p.count) * 100 : null, p50: p.p50, p95: p.p95 };
  });
  const range = { serverId: stats.serverId, from: stats.from, to: stats.to };
  // A bucket's calls in history: [start, start + width), clipped to the range (history's `to` is inclusive).
  const openBucket = (start: number, status?: string) =>
    router.push(
      historyHref({ ...range, from: new Date(Math.max(start, from)).toISOString(), to: new Date(Math.min(start + width * 1000 - 1, to)).toISOString(), status }),
    );
  const { totals } = stats;
  const failureBar = (key: keyof typeof FAILED, name: string) => (
    <Bar dataKey={key} name={name} stackId="calls" fill={COLORS[key]} cursor="pointer" onClick={(bar) => openBucket((bar.payload as Point).start, FAILED[key])} />
  );

  return (
    <>
      <ChartCard title="Calls over time" href={historyHref(range)} summary={`${totals.count.toLocaleString()} calls, per ${stats.bucket}`} className="@4xl:col-span-2">
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={points} margin={{ top: 4, right: 4, bottom: 0, left: -16 }}>
            <CartesianGrid vertical={false} stroke={COLORS.grid} />
            <XAxis dataKey="label" {...axis} minTickGap={24} />
            <YAxis allowDecimals={false} {...axis} />
            <Tooltip cursor={{ fill: "var(--hover)" }} contentStyle={tooltipStyle} />
            <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />
            <Bar dataKey="ok" name="ok and other" stackId="calls" fill={COLORS.calls} cursor="pointer" onClick={(bar) => openBucket((bar.payload as Point).start)} />
            {failureBar("errors", "errors")}
            {failureBar("timeouts", "timeouts")}
            {failureBar("interrupted", "interrupted")}
          </BarChart>
        </ResponsiveContainer>
      </ChartCard>
      <ChartCard
        title="Failure rate"
        href={historyHref(range)}
        summary={
          <>
            {formatRate(totals.failures, totals.count)} of calls failed:{" "}
            {(["errors", "timeouts", "interrupted"] as const).map((key, i) => (
              <span key={key}>
                {i ? ", " : ""}
                <Link href={historyHref({ ...range, status: FAILED[key] })} className="text-accent hover:underline">
                  {key === "interrupted" ? `${totals.interrupted.toLocaleString()} interrupted` : plural(totals[key], FAILED[key])}
                </Link>
              </span>
            ))}
          </>
        }
      >
        <ResponsiveContainer width="100%" height={180}>
          <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: -12 }}>
            <CartesianGrid vertical={false} stroke={COLORS.grid} />
            <XAxis dataKey="label" {...axis} minTickGap={24} />
            <YAxis domain={[0, 100]} {...axis} tickFormatter={(v: number) => `${v}%`} />
            <Tooltip formatter={(v) => `${Number(v).toFixed(1)}%`} contentStyle={tooltipStyle} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Line type="monotone" dataKey="rate" name="failure rate (errors, timeouts, interrupted)" stroke={COLORS.errors} dot={false} connectNulls isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </ChartCard>
      <ChartCard title="Duration" href={historyHref(range)} summary={`p50 ${formatMs(totals.p50)}, p95 ${formatMs(totals.p95)} over the range, of ${answeredOnly(totals)}`}>
        <ResponsiveContainer width="100%" height={180}>
          <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid vertical={false} stroke={COLORS.grid} />
            <XAxis dataKey="label" {...axis} minTickGap={24} />
            <YAxis {...axis} width={56} tickFormatter={formatTickMs} />
            <Tooltip formatter={(v) => formatMs(Number(v))} contentStyle={tooltipStyle} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Line type="monotone" dataKey="p50" name="p50" stroke={COLORS.p50} dot={false} connectNulls isAnimationActive={false} />
            <Line type="monotone" dataKey="p95" name="p95" stroke={COLORS.p95} dot={false} connectNulls isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </ChartCard>
    </>
  );
}
