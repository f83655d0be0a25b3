"use client";

import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/spinner";
import { Cell, Row, Table } from "@/components/ui/table";
import { formatTime } from "@/components/calls/format";
import { useReplays } from "@/lib/domains/replays/hooks";
import { ReplayStatusBadge } from "./replay-status-badge";

/** The workspace's replays, newest first, with their counts. */
export function ReplaysPage() {
  const replays = useReplays();
  if (replays.isPending) {
    return (
      <div className="flex flex-col gap-2">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-10 w-full" />
        ))}
      </div>
    );
  }
  if (replays.error) return <ErrorAlert error={replays.error} title="Could not load replays" />;
  if (replays.data.length === 0) {
    return (
      <EmptyState title="No replays yet">
        A replay sends recorded calls again to another server (a new version) and reports, call by call, what answers differently. Tick calls in the history, or filter it, and choose Replay….
      </EmptyState>
    );
  }
  return (
    <Table columns={["Target server", "Status", { name: "Same", align: "right" }, { name: "Different", align: "right" }, { name: "Errors", align: "right" }, "Started"]} aria-label="Replays">
      {replays.data.map((r) => (
        <Row key={r.id} hover>
          <Cell>
            <Link href={`/replays/${r.id}`} className="font-medium text-accent hover:underline">
              {r.serverName}
            </Link>
            <span className="text-xs text-muted"> · {r.total} calls</span>
          </Cell>
          <Cell label="Status">
            <ReplayStatusBadge status={r.status} />
          </Cell>
          <Cell label="Same" className="text-right tabular-nums">
            {r.same}
          </Cell>
          <Cell label="Different" className="text-right tabular-nums">
            {r.different}
          </Cell>
          <Cell label="Errors" className="text-right tabular-nums">
            {r.errors}
          </Cell>
          <Cell label="Started" className="text-xs text-muted">
            <time dateTime={r.startedAt}>{formatTime(r.startedAt, true)}</time>
            {r.startedBy ? ` by ${r.startedBy.name}` : ""}
          </Cell>
        </Row>
      ))}
    </Table>
  );
}
