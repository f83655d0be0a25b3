"use client";

import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { COLORS } from "@/components/stats/chart-card";
import { OneLineTick } from "@/components/stats/one-line-tick";
import type { LintReport } from "@/lib/domains/quality";
import { chronological } from "./token-change";

const axis = { stroke: COLORS.muted, fontSize: 11, tickLine: false, tick: OneLineTick } as const;
const tooltipStyle = { background: "var(--raised)", border: "1px solid var(--line)", fontSize: 12 };

/** The token total at each snapshot, oldest first (recharts, loaded apart like the dashboard's). */
export default function TokenHistoryChart({ history, height = 140 }: { history: LintReport["history"]; height?: number }) {
  const points = chronological(history);
  // Snapshots of one day or two are told apart by their time, longer spans by their date.
  const short = points.length > 0 && Date.parse(points.at(-1)!.takenAt) - Date.parse(points[0]!.takenAt) < 2 * 86_400_000;
  const data = points.map((p) => ({
    label: short
      ? new Date(p.takenAt).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })
      : new Date(p.takenAt).toLocaleDateString(undefined, { month: "short", day: "numeric" }),
    at: new Date(p.takenAt).toLocaleString(),
    total: p.total,
  }));
  return (
    <ResponsiveContainer width="100%" height={height}>
      <LineChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid vertical={false} stroke={COLORS.grid} />
        <XAxis dataKey="label" {...axis} minTickGap={24} />
        <YAxis {...axis} width={56} tickFormatter={(v: number) => v.toLocaleString("en-US")} />
        <Tooltip
          formatter={(v) => [`${Number(v).toLocaleString("en-US")} tokens`, "total"]}
          labelFormatter={(_, payload) => String(payload?.[0]?.payload?.at ?? "")}
          contentStyle={tooltipStyle}
        />
        <Line type="linear" dataKey="total" name="tokens" stroke={COLORS.calls} dot={{ r: 3 }} isAnimationActive={false} />
      </LineChart>
    </ResponsiveContainer>
  );
}
