"use client";

import { useState } from "react";
import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { formatTime } from "@/components/calls/format";
import type { IncidentDto, UptimeDto } from "@/lib/watch/monitors";

const KIND = { failing: "bg-red-500", slow: "bg-amber-500" } as const;

/** The range as a strip with each incident drawn where it happened, and the incidents listed below in words. */
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

  return (
    <div className="flex flex-col gap-1" data-testid="incident-timeline">
      <div role="img" aria-label={`Incidents over the last ${uptime.hours} hours: ${label}`} className="relative h-3 overflow-hidden rounded bg-emerald-500/25">
        {uptime.incidents.map((i) => {
          const { left, width } = place(i);
          return <span key={i.id} className={cn("absolute inset-y-0", KIND[i.kind])} style={{ left: `${left}%`, width: `${width}%` }} />;
        })}
      </div>
      <div className="flex justify-between text-[11px] text-muted">
        <span>{formatTime(new Date(from).toISOString(), true)}</span>
        <span>now</span>
      </div>
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
