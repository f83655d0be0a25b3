"use client";

import Link from "next/link";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { formatTime } from "@/components/calls/format";
import type { AlertDelivery, AlertDto, AlertEvent } from "@/lib/watch/alerts";

const TONE: Record<AlertEvent, BadgeTone> = { failing: "red", recovered: "green", slow: "amber", "breaking-change": "violet", "definitions-withheld": "amber", "approval-requested": "blue" };

/** Alerts, newest first: what each said, where it links, and how each delivery went. */
export function AlertList({ alerts, label = "Alerts" }: { alerts: AlertDto[]; label?: string }) {
  return (
    <ol aria-label={label} className="flex flex-col gap-2">
      {alerts.map((a) => (
        <AlertItem key={a.id} alert={a} />
      ))}
    </ol>
  );
}

function AlertItem({ alert: a }: { alert: AlertDto }) {
  const subject = a.monitor ? { href: `/monitors/${a.monitor.id}`, name: a.monitor.name } : a.server ? { href: `/servers/${a.server.id}`, name: a.server.name } : null;
  return (
    <li data-testid="alert" data-event={a.event} className="flex flex-col gap-1.5 rounded-md border bg-panel p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={TONE[a.event] ?? "neutral"} testId="alert-event">
          {a.event}
        </Badge>
        {subject && (
          <Link href={subject.href} className="font-medium text-accent hover:underline">
            {subject.name}
          </Link>
        )}
        <time dateTime={a.createdAt} className="ml-auto text-xs text-muted">
          {formatTime(a.createdAt)}
        </time>
      </div>
      <p className="break-words">{a.text}</p>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs">
        <Link href={a.path} className="text-accent hover:underline">
          {a.runId ? "Open the run" : "Open"}
        </Link>
        <ul aria-label="Deliveries" className="flex flex-wrap gap-2">
          {a.deliveries.map((d, n) => (
            <Delivery key={n} delivery={d} />
          ))}
        </ul>
      </div>
    </li>
  );
}

function Delivery({ delivery: d }: { delivery: AlertDelivery }) {
  const where = d.channel === "console" ? "console" : `${d.channel} ${d.target}`;
  return (
    <li data-testid="alert-delivery" data-ok={d.ok ? "true" : "false"} title={d.detail}>
      <Badge tone={d.ok ? "green" : "red"}>
        {where}: {d.ok ? "sent" : "failed"}
      </Badge>
      {!d.ok && d.detail && <span className="ml-1 text-red-700 dark:text-red-300">{d.detail}</span>}
    </li>
  );
}
