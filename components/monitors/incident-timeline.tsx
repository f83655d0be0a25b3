"use client";

import { useState } from "react";
import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { formatTime } from "@/components/calls/format";
import type { IncidentDto, UptimeDto } from "@/lib/watch/monitors";

const KIND = { failing: "bg-red-500", slow: "bg-amber-500" } as const;
const UP = "bg-emerald-500/35";
const NO_DATA = "bg-zinc-400/25 dark:bg-zinc-500/25";
const LEGEND = [
  { label: "up", swatch: UP },
  { label: "failing", swatch: KIND.failing },
  { label: "slow", swatch: KIND.slow },
  { label: "no data", swatch: NO_DATA },
];

/**
 * The range as a strip, one segment per bucket (an hour over a day): up where the monitor ran, grey
 * where it did not (before it existed, paused, or skipped), each incident drawn over where it
 * happened; a legend, and the incidents listed below in words.
 */
export function IncidentTimeline({ uptime, compact }: { uptime: UptimeDto; compact?: boolean }) {
  const [opened] = useState(() => Date.now());
  const first = uptime.buckets[0] ? Date.parse(uptime.buckets[0].start) : null;
  const from = first ?? opened - uptime.hours * 3_600_000;
  const to = Math.max(from + uptime.hours * 3_600_000, opened);
  const span = to - from;
  const place = (i: IncidentDto) => {
    const start = Math.max(Date.parse(i.startedAt), from);
    const end = i.endedAt ? Date.parse(i.endedAt) : to;
    // At least a sliver, kept inside the strip, so a minute-long incident in a week still shows.
    const width = Math.min(Math.max(((end - start) / span) * 100, 0.5), 100);
    return { left: Math.min(((start - from) / span) * 100, 100 - width), width };
  };
  const label = uptime.incidents.length ? `${uptime.incidents.length} incident${uptime.incidents.length === 1 ? "" : "s"}` : "No incidents";
  const empty = uptime.buckets.filter((b) => b.runs === 0).length;
  const bucketHours = uptime.hours / Math.max(uptime.buckets.length, 1);

  return (
    <div className="flex flex-col gap-1" data-testid="incident-timeline">
      <div
        role="img"
        aria-label={`Incidents over the last ${uptime.hours} hours: ${label}; ${empty ? `no runs in ${empty} of ${uptime.buckets.length} periods` : "runs in every period"}`}
        className={cn("relative flex h-3 overflow-hidden rounded", !uptime.buckets.length && NO_DATA)}
      >
        {uptime.buckets.map((b) => (
          <span
            key={b.start}
            data-testid="uptime-bucket"
            data-state={b.runs ? "up" : "no-data"}
            title={`${formatTime(b.start, true)}: ${b.runs ? `${b.passed} of ${b.runs} runs passed` : `no runs in ${bucketHours === 1 ? "this hour" : "this period"}`}`}
            className={cn("h-full flex-1", b.runs ? UP : NO_DATA)}
          />
        ))}
        {uptime.incidents.map((i) => {
          const { left, width } = place(i);
          return <span key={i.id} className={cn("absolute inset-y-0", KIND[i.kind])} style={{ left: `${left}%`, width: `${width}%` }} />;
        })}
      </div>
      <div className="flex justify-between text-[11px] text-muted">
        <span>{formatTime(new Date(from).toISOString(), true)}</span>
        <span>now</span>
      </div>
      <ul aria-label="Legend" data-testid="uptime-legend" className="flex flex-wrap gap-x-3 gap-y-0.5 text-[11px] text-muted">
        {LEGEND.map((item) => (
          <li key={item.label} className="inline-flex items-center gap-1">
            <span className={cn("inline-block h-2 w-3 rounded-sm", item.swatch)} aria-hidden />
            {item.label}
          </li>
        ))}
      </ul>
      {!compact && (
        <ol aria-label="Incidents" className="flex flex-col gap-1 text-xs">
          {uptime.incidents.length === 0 && <li className="text-muted">No incidents in this range.</li>}
          {uptime.incidents.map((i) => (
            <li key={i.id} data-testid="incident" data-open={i.endedAt ? "false" : "true"} className="flex flex-wrap items-center gap-2">
              <span className={cn("inline-block size-2 rounded-full", KIND[i.kind])} aria-hidden />
              <span className="font-medium">{i.kind}</span>
              <span className="text-muted">
                {formatTime(i.startedAt, true)} → {i.endedAt ? formatTime(i.endedAt, true) : "still open"}, {i.runIds.length} run{i.runIds.length === 1 ? "" : "s"}
              </span>
              {i.runIds[0] && (
                <Link href={`/runs/${i.runIds[0]}`} className="text-accent hover:underline">
                  first failing run
                </Link>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
