"use client";

import { lazy, Suspense, useEffect, useState } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Labelled, Select } from "@/components/ui/field";
import { Loading } from "@/components/ui/spinner";
import { UptimeSection } from "@/components/monitors/uptime-section";
import { useArchivedServers, useServers } from "@/lib/domains/servers/hooks";
import { historyHref } from "@/lib/domains/stats";
import { useStats } from "@/lib/domains/stats/hooks";
import type { Stats } from "@/lib/domains/stats";
import { answeredOnly, failureParts, Figure, formatMs, formatRate } from "./chart-card";

// recharts (with its d3 and redux parts) is most of this page's JavaScript: fetched apart from the
// page, starting when it opens, so it arrives while the figures are being computed.
const loadCharts = () => import("./dashboard-charts");
const DashboardCharts = lazy(loadCharts);

const RANGES = { "1h": ["Last hour", 3_600_000], "24h": ["Last 24 hours", 86_400_000], "7d": ["Last 7 days", 7 * 86_400_000], "30d": ["Last 30 days", 30 * 86_400_000] } as const;
type Range = keyof typeof RANGES;
const isRange = (v: string | null): v is Range => v !== null && v in RANGES;

/**
 * The dashboard of the workspace or of one server (`?serverId=`), over a range ending now
 * (`?range=`) or a fixed one (`?from=&to=`, as history's links carry).
 */
export function DashboardPage() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const servers = useServers();
  const archived = useArchivedServers();
  const serverId = params.get("serverId") ?? undefined;
  const fixed = params.get("from") && params.get("to") ? { from: params.get("from")!, to: params.get("to")! } : null;
  const range: Range = isRange(params.get("range")) ? (params.get("range") as Range) : "24h";
  // "Now" is fixed when the page opens and moves on Refresh, so the query does not change on every render.
  const [now, setNow] = useState(() => Date.now());
  const filters = fixed ? { serverId, ...fixed } : { serverId, from: new Date(now - RANGES[range][1]).toISOString(), to: new Date(now).toISOString() };
  const stats = useStats(filters);
  useEffect(() => void loadCharts(), []);

  const navigate = (patch: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params.toString());
    for (const [key, value] of Object.entries(patch)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    router.replace(`${pathname}?${next}`, { scroll: false });
  };

  return (
    <div className="@container flex flex-col gap-4">
      <form aria-label="Dashboard filters" className="flex flex-wrap items-end gap-2" onSubmit={(e) => e.preventDefault()}>
        <Labelled label="Server">
          <Select value={serverId ?? ""} onChange={(e) => navigate({ serverId: e.target.value })} className="w-44">
            <option value="">All servers</option>
            {servers.data?.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
            {archived.data?.length ? (
              <optgroup label="Archived">
                {archived.data.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name} (archived)
                  </option>
                ))}
              </optgroup>
            ) : null}
          </Select>
        </Labelled>
        <Labelled label="Range">
          <Select value={fixed ? "" : range} onChange={(e) => navigate({ range: e.target.value, from: undefined, to: undefined })} className="w-40">
            {fixed && <option value="">Custom range</option>}
            {Object.entries(RANGES).map(([key, [label]]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </Select>
        </Labelled>
        <Button onClick={() => setNow(Date.now())} busy={stats.isFetching} disabled={Boolean(fixed)}>
          Refresh
        </Button>
      </form>

      {stats.error ? (
        <ErrorAlert error={stats.error} title="Could not load the dashboard" />
      ) : !stats.data ? (
        <Loading />
      ) : stats.data.totals.count === 0 ? (
        <EmptyState title="No calls in this range">Calls made from this workspace{serverId ? " to this server" : ""} show up here.</EmptyState>
      ) : (
        <>
          <Figures stats={stats.data} />
          <Suspense fallback={<Loading label="Loading charts…" />}>
            <DashboardCharts stats={stats.data} />
          </Suspense>
        </>
      )}
      <UptimeSection hours={Math.max(1, Math.round((Date.parse(filters.to) - Date.parse(filters.from)) / 3_600_000))} />
    </div>
  );
}

function Figures({ stats }: { stats: Stats }) {
  const { totals } = stats;
  const range = { serverId: stats.serverId, from: stats.from, to: stats.to };
  return (
    <div className="grid grid-cols-1 gap-2 @xs:grid-cols-2 @2xl:grid-cols-3 @4xl:grid-cols-5">
      <Figure label="Calls" value={totals.count.toLocaleString()} href={historyHref(range)} />
      <Figure
        label="Failure rate"
        value={formatRate(totals.failures, totals.count)}
        href={historyHref(totals.failures === totals.errors ? { ...range, status: "error" } : range)}
        detail={totals.failures ? `${failureParts(totals).join(", ")}` : "errors, timeouts and interrupted calls"}
      />
      <Figure label="Timeouts" value={totals.timeouts.toLocaleString()} href={historyHref({ ...range, status: "timeout" })} detail="no answer in time" />
      <Figure label="p50" value={formatMs(totals.p50)} href={historyHref(range)} detail={answeredOnly(totals)} />
      <Figure label="p95" value={formatMs(totals.p95)} href={historyHref(range)} detail={answeredOnly(totals)} />
      {totals.denied > 0 && <Figure label="Denied" value={totals.denied.toLocaleString()} href={historyHref({ ...range, status: "denied" })} detail="refused by the workspace's rules" />}
    </div>
  );
}
