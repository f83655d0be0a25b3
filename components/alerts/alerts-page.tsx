"use client";

import { useEffect } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/spinner";
import { useAlerts, useMarkAlertsRead } from "@/lib/watch/alerts/hooks";
import { AlertList } from "./alert-list";

/** Every alert the workspace raised, newest first: what it said, where it links, and how each delivery went. Opening it marks them read. */
export function AlertsPage() {
  const alerts = useAlerts();
  const markRead = useMarkAlertsRead();
  const newest = alerts.data?.[0]?.id;
  const { mutate } = markRead;
  // What is listed has been seen, and so has what arrives while the page is open.
  useEffect(() => {
    if (newest) mutate(newest);
  }, [newest, mutate]);
  if (alerts.isPending) {
    return (
      <div className="flex flex-col gap-2">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-14 w-full" />
        ))}
      </div>
    );
  }
  if (alerts.error) return <ErrorAlert error={alerts.error} title="Could not load alerts" />;
  if (alerts.data.length === 0) {
    return <EmptyState title="No alerts yet">Monitors alert here (and by mail or webhook) when a run fails, recovers or is slow; watched servers when their tools change in a breaking way.</EmptyState>;
  }
  return <AlertList alerts={alerts.data} />;
}
