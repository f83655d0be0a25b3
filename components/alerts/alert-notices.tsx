"use client";

import { useCallback, useRef, useState } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { alertKeys, mayActOn, type UnreadAlertsDto } from "@/lib/watch/alerts";
import { effectiveRole } from "@/lib/core/access";
import type { WorkspaceEvent } from "@/lib/core/events";

type AlertEvent = Extract<WorkspaceEvent, { type: "alert" }>;

const TITLE: Record<string, string> = { failing: "Monitor failing", slow: "Monitor slow", "breaking-change": "Breaking change", "definitions-withheld": "Definitions withheld" };
/** More than this and the oldest notice goes: they are a nudge towards Alerts, not a second list. */
const MAX_NOTICES = 3;

/**
 * The live notices of one tab: an alert the person's role may act on, raised while they work
 * elsewhere in the console. `offer` takes every `alert` event (the events stream sends each alert
 * when it is recorded and again when its deliveries settle: shown once).
 */
export function useAlertNotices(role: string) {
  const [notices, setNotices] = useState<AlertEvent[]>([]);
  const offered = useRef(new Set<string>());
  const queryClient = useQueryClient();
  const pathname = usePathname();
  const onAlerts = pathname === "/alerts";
  const offer = useCallback(
    (event: AlertEvent) => {
      if (offered.current.has(event.alertId)) return;
      offered.current.add(event.alertId);
      if (onAlerts || !mayActOn(effectiveRole(role, undefined), event.event)) return;
      // A replay after a reconnect may carry alerts this person has since read.
      const seenAt = queryClient.getQueryData<UnreadAlertsDto>(alertKeys.unread())?.seenAt;
      if (seenAt && event.createdAt <= seenAt) return;
      setNotices((list) => [event, ...list].slice(0, MAX_NOTICES));
    },
    [onAlerts, queryClient, role],
  );
  const dismiss = useCallback((alertId: string) => setNotices((list) => list.filter((n) => n.alertId !== alertId)), []);
  return { notices: onAlerts ? [] : notices, offer, dismiss };
}

/** The notices, bottom right (full width on a phone). The live region is always there, so each new notice is announced. */
export function AlertNotices({ notices, dismiss }: { notices: AlertEvent[]; dismiss: (alertId: string) => void }) {
  return (
    <div role="status" aria-live="polite" aria-label="Alert notices" className="pointer-events-none fixed right-4 bottom-4 z-40 flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2">
      {notices.map((n) => (
        <div key={n.alertId} data-testid="alert-notice" className="pointer-events-auto flex items-start gap-3 rounded-lg border border-red-300 bg-raised p-3 text-sm shadow-lg dark:border-red-900">
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <p className="font-semibold text-red-700 dark:text-red-300">{TITLE[n.event] ?? "Alert"}</p>
            <p className="line-clamp-3 break-words">{n.text}</p>
            <Link href={n.path} className="self-start font-medium text-accent hover:underline" onClick={() => dismiss(n.alertId)}>
              Open<span className="sr-only"> — {TITLE[n.event] ?? "Alert"}</span>
            </Link>
          </div>
          <button type="button" className="rounded p-1 text-muted hover:bg-hover hover:text-fg" aria-label="Dismiss this notice" onClick={() => dismiss(n.alertId)}>
            <svg aria-hidden viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <path d="M6 6l12 12M18 6 6 18" />
            </svg>
          </button>
        </div>
      ))}
    </div>
  );
}
