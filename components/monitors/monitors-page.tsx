"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { RoleGate } from "@/components/ui/role-gate";
import { Skeleton } from "@/components/ui/spinner";
import { Cell, Row, Table } from "@/components/ui/table";
import { formatTime } from "@/components/calls/format";
import { RunStatusBadge } from "@/components/collections/run-status-badge";
import type { RunStatus } from "@/lib/domains/collections";
import { useMonitors } from "@/lib/watch/monitors/hooks";
import { MonitorForm } from "./monitor-form";
import { MonitorStateBadge } from "./monitor-state-badge";
import { scheduleInWords } from "./schedule";

/** The workspace's monitors: state, schedule, last run. `?new=<collectionId>` opens the create form for that collection. */
export function MonitorsPage() {
  const monitors = useMonitors();
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const creating = params.get("new");
  const setCreating = (collectionId: string | null) => router.replace(collectionId === null ? pathname : `${pathname}?new=${encodeURIComponent(collectionId)}`, { scroll: false });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <RoleGate min="member">
          <Button variant="primary" onClick={() => setCreating("")}>
            New monitor
          </Button>
        </RoleGate>
      </div>
      <Dialog open={creating !== null} onClose={() => setCreating(null)} title="New monitor" description="Runs a collection on a schedule and alerts when it fails, recovers or is slow.">
        {creating !== null && (
          <MonitorForm collectionId={creating || undefined} onCancel={() => setCreating(null)} onDone={(m) => router.push(`/monitors/${m.id}`)} />
        )}
      </Dialog>
      {monitors.isPending ? (
        <div className="flex flex-col gap-2">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </div>
      ) : monitors.error ? (
        <ErrorAlert error={monitors.error} title="Could not load monitors" />
      ) : monitors.data.length === 0 ? (
        <EmptyState title="No monitors yet">A monitor runs a collection on a schedule, in an environment, and alerts by mail, webhook and here when it fails.</EmptyState>
      ) : (
        <Table columns={["Name", "State", "Schedule", "Last run", "Next run"]} aria-label="Monitors">
          {monitors.data.map((m) => (
            <Row key={m.id} hover data-testid="monitor-row">
              <Cell>
                <Link href={`/monitors/${m.id}`} className="font-medium text-accent hover:underline">
                  {m.name}
                </Link>
                <p className="text-xs text-muted">
                  {m.collectionName}
                  {m.environment ? ` · ${m.environment}` : ""}
                </p>
              </Cell>
              <Cell label="State">
                <MonitorStateBadge monitor={m} />
              </Cell>
              <Cell label="Schedule" className="text-xs">
                {scheduleInWords(m.schedule)}
              </Cell>
              <Cell label="Last run">
                {m.lastRun ? (
                  <Link href={`/runs/${m.lastRun.id}`} className="inline-flex items-center gap-2 hover:underline">
                    <RunStatusBadge status={m.lastRun.status as RunStatus} />
                    <time dateTime={m.lastRun.startedAt} className="text-xs text-muted">
                      {formatTime(m.lastRun.startedAt, true)}
                    </time>
                  </Link>
                ) : (
                  <span className="text-xs text-muted">not run yet</span>
                )}
              </Cell>
              <Cell label="Next run" className="text-xs text-muted">
                {m.enabled && m.nextRunAt ? <time dateTime={m.nextRunAt}>{formatTime(m.nextRunAt, true)}</time> : "–"}
              </Cell>
            </Row>
          ))}
        </Table>
      )}
    </div>
  );
}
