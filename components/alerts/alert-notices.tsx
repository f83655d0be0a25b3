"use client";

import { useCallback } from "react";
import { usePathname } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { alertKeys, mayActOn, type UnreadAlertsDto } from "@/lib/watch/alerts";
import { effectiveRole } from "@/lib/core/access";
import type { WorkspaceEvent } from "@/lib/core/events";
import { NoticeStack, useNotices } from "@/components/ui/notice-stack";

type AlertEvent = Extract<WorkspaceEvent, { type: "alert" }>;

const TITLE: Record<string, string> = { failing: "Monitor failing", slow: "Monitor slow", "breaking-change": "Breaking change", "definitions-withheld": "Definitions withheld" };
const keyOf = (event: AlertEvent) => event.alertId;

/**
 * The live notices of one tab: an alert the person's role may act on, raised while they work
 * elsewhere in the console. `offer` takes every `alert` event (the events stream sends each alert
 * when it is recorded and again when its deliveries settle: shown once).
 */
export function useAlertNotices(role: string) {
  const queryClient = useQueryClient();
  const onAlerts = usePathname() === "/alerts";
  const { notices, offer: show, dismiss } = useNotices(keyOf, onAlerts);
  const offer = useCallback(
    (event: AlertEvent) => {
      // A replay after a reconnect may carry alerts this person has since read.
      const seenAt = queryClient.getQueryData<UnreadAlertsDto>(alertKeys.unread())?.seenAt;
      show(event, !onAlerts && mayActOn(effectiveRole(role, undefined), event.event) && !(seenAt && event.createdAt <= seenAt));
    },
    [onAlerts, queryClient, role, show],
  );
  return { notices, offer, dismiss };
}

/** The alert notices, bottom right. */
export function AlertNotices({ notices, dismiss }: { notices: AlertEvent[]; dismiss: (alertId: string) => void }) {
  const items = notices.map((n) => {
    const title = TITLE[n.event] ?? "Alert";
    return { key: n.alertId, title, body: n.text, href: n.path, action: "Open", actionDetail: `— ${title}` };
  });
  return <NoticeStack label="Alert notices" notices={items} dismiss={dismiss} tone="danger" className="right-4" testId="alert-notice" />;
}
