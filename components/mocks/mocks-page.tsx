"use client";

import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/spinner";
import { Cell, Row, Table } from "@/components/ui/table";
import { useMocks } from "@/lib/domains/mocks/hooks";
import { DeleteMockButton, ExportMockLink } from "./mock-actions";

const origin = () => (typeof window === "undefined" ? "" : window.location.origin);

/** The workspace's mock servers: where each answers, of which server, how it matches. */
export function MocksPage() {
  const mocks = useMocks();
  if (mocks.isPending) return <Skeleton className="h-32 w-full" />;
  if (mocks.error) return <ErrorAlert error={mocks.error} title="Could not load the mocks" />;
  if (mocks.data.length === 0) {
    return (
      <EmptyState title="No mocks yet">
        Make one from <Link href="/history" className="text-accent underline underline-offset-2">History</Link> (with its filters, or the calls you tick) or from a
        collection&apos;s run: <strong>Make a mock</strong>.
      </EmptyState>
    );
  }
  return (
    <Table columns={["Name", "Source server", "Endpoint", { name: "Recordings", align: "right" }, "Match", "Latency", { name: "Actions", hidden: true }]} aria-label="Mocks">
      {mocks.data.map((m) => (
        <Row key={m.id} data-testid="mock-row">
          <Cell>
            <Link href={`/mocks/${m.id}`} className="font-medium text-accent hover:underline">
              {m.name}
            </Link>
          </Cell>
          <Cell label="Source server">{m.serverName ?? <span className="text-muted">deleted server</span>}</Cell>
          <Cell label="Endpoint">
            <span className="flex flex-wrap items-center gap-1">
              <code className="font-mono text-xs break-all">{m.endpoint}</code>
              <CopyButton text={`${origin()}${m.endpoint}`} label="Copy URL" />
            </span>
          </Cell>
          <Cell label="Recordings" className="tabular-nums sm:text-right">
            {m.calls}
          </Cell>
          <Cell label="Match">{m.match}</Cell>
          <Cell label="Latency">{m.latency ? "recorded" : "none"}</Cell>
          <Cell actions>
            <span className="flex flex-wrap justify-end gap-1">
              <ExportMockLink mock={m} />
              <DeleteMockButton mock={m} />
            </span>
          </Cell>
        </Row>
      ))}
    </Table>
  );
}
