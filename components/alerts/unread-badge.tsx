"use client";

import { cn } from "@/components/ui/cn";
import { useUnreadAlerts } from "@/lib/watch/alerts/hooks";

/** "99+" past 99: the badge stays one small pill. */
export function unreadLabel(count: number): string {
  return count > 99 ? "99+" : String(count);
}

/** The count of unread alerts the person may act on, as a pill (nothing at zero); its words are for screen readers. */
export function UnreadAlertsBadge({ className }: { className?: string }) {
  const unread = useUnreadAlerts();
  const count = unread.data?.count ?? 0;
  if (!count) return null;
  return (
    <span data-testid="unread-alerts" className={cn("inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1.5 text-[11px] leading-5 font-semibold text-white", className)}>
      <span aria-hidden>{unreadLabel(count)}</span>
      <span className="sr-only">
        , {count} unread alert{count === 1 ? "" : "s"}
      </span>
    </span>
  );
}
