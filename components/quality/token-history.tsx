"use client";

import { lazy, Suspense } from "react";
import { formatTime } from "@/components/calls/format";
import { Skeleton } from "@/components/ui/spinner";
import { Cell, Row, Table } from "@/components/ui/table";
import type { LintReport } from "@/lib/domains/quality";
import { changeSince, chronological, describeChange } from "./token-change";

// recharts is most of a chart's JavaScript: fetched apart, only when there is a history to draw.
const TokenHistoryChart = lazy(() => import("./token-history-chart"));

interface TokenHistoryProps {
  history: LintReport["history"];
  /** The snapshot the page shows. */
  shown: string | null;
  onShow: (snapshotId: string) => void;
}

/** The token total over the snapshots: a chart, and the same figures as a table (newest first) to pick a snapshot. */
export function TokenHistory({ history, shown, onShow }: TokenHistoryProps) {
  if (history.length < 2) {
    return <p className="text-sm text-muted">One snapshot so far: the history grows each time the server’s definitions change.</p>;
  }
  const newestFirst = chronological(history).reverse();
  return (
    <div className="flex flex-col gap-3">
      <figure aria-label="Token total by snapshot" className="flex min-w-0 flex-col gap-1 rounded-lg border bg-raised p-3">
        <figcaption className="text-xs text-muted">
          Token total at each of {history.length} snapshots, oldest on the left (the same figures are in the table below).
        </figcaption>
        <Suspense fallback={<Skeleton className="h-[140px]" />}>
          <TokenHistoryChart history={history} />
        </Suspense>
      </figure>
      <Table columns={["Taken", { name: "Tokens", align: "right" }, "Change", { name: "Actions", hidden: true }]} aria-label="Token history">
        {newestFirst.map((point) => {
          const change = changeSince(history, point.snapshotId);
          const current = point.snapshotId === shown;
          return (
            <Row key={point.snapshotId} className={current ? "bg-hover" : undefined}>
              <Cell label="Taken">{formatTime(point.takenAt)}</Cell>
              <Cell label="Tokens" className="text-right tabular-nums">
                {point.total.toLocaleString("en-US")}
              </Cell>
              <Cell label="Change" className="tabular-nums">
                {change ? describeChange(change) : <span className="text-muted">first</span>}
              </Cell>
              <Cell actions className="text-right">
                {current ? (
                  <span className="text-xs text-muted">shown</span>
                ) : (
                  <button type="button" className="text-xs text-accent underline-offset-2 hover:underline" onClick={() => onShow(point.snapshotId)}>
                    Show<span className="sr-only"> the snapshot of {formatTime(point.takenAt)}</span>
                  </button>
                )}
              </Cell>
            </Row>
          );
        })}
      </Table>
    </div>
  );
}
