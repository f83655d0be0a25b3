"use client";

import { useState } from "react";
import Link from "next/link";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { RoleGate } from "@/components/ui/role-gate";
import { Skeleton } from "@/components/ui/spinner";
import { Cell, Row, Table } from "@/components/ui/table";
import { formatTime } from "@/components/calls/format";
import { useCan } from "@/lib/identity/auth/hooks";
import { useLoadTests } from "@/lib/domains/load-tests/hooks";
import { errorsText, ms, shape } from "./format";
import { LoadTestStatusBadge } from "./load-test-status";
import { NewLoadTestDialog } from "./new-load-test";

/** The workspace's load tests, newest first, and New load test (admins). */
export function LoadTestsPage() {
  const admin = useCan("admin");
  const tests = useLoadTests(admin.allowed);
  const [creating, setCreating] = useState(false);

  if (!admin.allowed) return admin.reason ? <Alert tone="info" title="Load tests are for admins">{admin.reason}</Alert> : <Skeleton className="h-10 w-full" />;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <RoleGate min="admin">
          <Button variant="primary" onClick={() => setCreating(true)}>
            New load test
          </Button>
        </RoleGate>
      </div>
      <NewLoadTestDialog open={creating} onClose={() => setCreating(false)} />
      {tests.isPending ? (
        <Skeleton className="h-10 w-full" />
      ) : tests.error ? (
        <ErrorAlert error={tests.error} title="Could not load the load tests" />
      ) : tests.data.length === 0 ? (
        <EmptyState title="No load tests yet">Run a collection or one call with many virtual users, for a while or a number of calls, and read calls/s and p50/p95/p99.</EmptyState>
      ) : (
        <Table columns={["Test", "Status", { name: "Calls", align: "right" }, { name: "Calls/s", align: "right" }, { name: "p95", align: "right" }, { name: "Errors", align: "right" }, "Started"]} aria-label="Load tests">
          {tests.data.map((t) => (
            <Row key={t.id} hover>
              <Cell>
                <Link href={`/load-tests/${t.id}`} className="font-medium text-accent hover:underline">
                  {t.label}
                </Link>
                <p className="text-xs text-muted">{shape(t)}</p>
              </Cell>
              <Cell label="Status">
                <LoadTestStatusBadge status={t.status} />
              </Cell>
              <Cell label="Calls" className="text-right tabular-nums">
                {t.calls.toLocaleString("en-US")}
              </Cell>
              <Cell label="Calls/s" className="text-right tabular-nums">
                {t.callsPerSecond ?? "–"}
              </Cell>
              <Cell label="p95" className="text-right tabular-nums">
                {ms(t.p95)}
              </Cell>
              <Cell label="Errors" className="text-right tabular-nums">
                {errorsText(t)}
              </Cell>
              <Cell label="Started" className="text-xs text-muted">
                <time dateTime={t.startedAt}>{formatTime(t.startedAt, true)}</time>
              </Cell>
            </Row>
          ))}
        </Table>
      )}
    </div>
  );
}
