"use client";

import type { Stats } from "@/lib/domains/stats";
import { GroupCharts } from "./group-charts";
import { SeriesCharts } from "./series-charts";

/** The dashboard's charts (recharts), loaded by dashboard-page.tsx apart from the page. */
export default function DashboardCharts({ stats }: { stats: Stats }) {
  return (
    <div className="grid grid-cols-1 gap-3 @4xl:grid-cols-2">
      <SeriesCharts stats={stats} />
      <GroupCharts stats={stats} />
    </div>
  );
}
