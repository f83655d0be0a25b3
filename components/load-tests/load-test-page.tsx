"use client";

import { lazy, Suspense, useState } from "react";
import Link from "next/link";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Labelled, Select } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/spinner";
import { Cell, Row, Table } from "@/components/ui/table";
import { formatTime } from "@/components/calls/format";
import { useCan } from "@/lib/identity/auth/hooks";
import type { LoadTestDto } from "@/lib/domains/load-tests";
import { useCancelLoadTest, useLoadTest, useLoadTests } from "@/lib/domains/load-tests/hooks";
import { errorsText, ms, shape } from "./format";
import { LoadTestStatusBadge } from "./load-test-status";

const LoadTestChart = lazy(() => import("./load-test-chart"));

const FIGURES: { label: string; value: (t: LoadTestDto) => string }[] = [
  { label: "Calls", value: (t) => t.calls.toLocaleString("en-US") },
  { label: "Calls/s", value: (t) => (t.callsPerSecond ?? "–").toString() },
  { label: "Errors", value: errorsText },
  { label: "p50", value: (t) => ms(t.p50) },
  { label: "p95", value: (t) => ms(t.p95) },
  { label: "p99", value: (t) => ms(t.p99) },
  // Part of every figure above: near a step's p95, the console (or its machine), not the server, was busy.
  { label: "Console's own delay (p95)", value: (t) => (t.lag ? ms(t.lag.p95) : "–") },
];

/** One load test, live while it runs: figures overall and per step, errors by kind, the chart; compare with another. */
export function LoadTestPage({ id }: { id: string }) {
  const admin = useCan("admin");
  const test = useLoadTest(admin.allowed ? id : null);
  const all = useLoadTests(admin.allowed);
  const [compareId, setCompareId] = useState("");
  const other = useLoadTest(compareId || null);
  const cancel = useCancelLoadTest(id);

  if (!admin.allowed) return admin.reason ? <Alert tone="info" title="Load tests are for admins">{admin.reason}</Alert> : <Skeleton className="h-10 w-full" />;
  if (test.error) return <ErrorAlert error={test.error} title="Could not load the load test" />;
  const t = test.data;
  if (!t) return <Skeleton className="h-40 w-full" />;
  const o = compareId ? other.data : undefined;
  return (
    <div className="flex flex-col gap-4">
      <header className="flex flex-wrap items-center gap-3">
        <h1 className="text-lg font-semibold">{t.label}</h1>
        <LoadTestStatusBadge status={t.status} />
        <span className="text-sm text-muted">
          {shape(t)} · started <time dateTime={t.startedAt}>{formatTime(t.startedAt, true)}</time>
        </span>
        {t.status === "running" && (
          <Button className="ml-auto" onClick={() => cancel.mutate()} busy={cancel.isPending}>
            Cancel
          </Button>
        )}
      </header>
      {t.error && <Alert tone="warning">{t.error}</Alert>}
      <ErrorAlert error={cancel.error} title="Could not cancel" />
      <Labelled label="Compare with…">
        <Select value={compareId} onChange={(e) => setCompareId(e.target.value)} className="max-w-full sm:w-80">
          <option value="">nothing</option>
          {(all.data ?? [])
            .filter((x) => x.id !== id)
            .map((x) => (
              <option key={x.id} value={x.id}>
                {x.label} · {shape(x)} · {formatTime(x.startedAt, true)}
              </option>
            ))}
        </Select>
      </Labelled>
      <section aria-label="Figures" className="overflow-x-auto">
        <table className="w-full text-sm tabular-nums">
          <thead>
            <tr className="text-left text-xs text-muted">
              <th scope="col" className="py-1 pr-3 font-medium">Figure</th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">This test</th>
              {o && <th scope="col" className="py-1 text-right font-medium">{o.label} ({formatTime(o.startedAt, true)})</th>}
            </tr>
          </thead>
          <tbody>
            {FIGURES.map((f) => (
              <tr key={f.label} className="border-t">
                <th scope="row" className="py-1 pr-3 text-left font-medium">{f.label}</th>
                <td className="py-1 pr-3 text-right" data-testid={`figure-${f.label.toLowerCase().replace("/", "-per-")}`}>
                  {f.value(t)}
                </td>
                {o && <td className="py-1 text-right">{f.value(o)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {Object.keys(t.errors).length > 0 && (
        <section aria-label="Errors by kind" className="text-sm">
          <h2 className="mb-1 text-sm font-semibold">Errors by kind</h2>
          <ul className="flex flex-wrap gap-3">
            {Object.entries(t.errors).map(([kind, n]) => (
              <li key={kind}>
                <code>{kind}</code> {n.toLocaleString("en-US")}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-label="Calls per second and p95 over time" className="rounded-lg border bg-raised p-3">
        <h2 className="mb-2 text-sm font-semibold">Calls/s and p95 over time</h2>
        {t.series.length ? (
          <Suspense fallback={<Skeleton className="h-60 w-full" />}>
            <div data-testid="load-test-chart">
              <LoadTestChart series={t.series} other={o?.series} />
            </div>
          </Suspense>
        ) : (
          <p className="text-sm text-muted">The first second is under way…</p>
        )}
      </section>
      <Table columns={["Step", { name: "Calls", align: "right" }, { name: "Errors", align: "right" }, { name: "p50", align: "right" }, { name: "p95", align: "right" }, { name: "p99", align: "right" }]} aria-label="Steps">
        {t.steps.map((s) => (
          <Row key={s.index}>
            <Cell>{s.label}</Cell>
            <Cell label="Calls" className="text-right tabular-nums">{s.calls.toLocaleString("en-US")}</Cell>
            <Cell label="Errors" className="text-right tabular-nums">{s.errors.toLocaleString("en-US")}</Cell>
            <Cell label="p50" className="text-right tabular-nums">{ms(s.p50)}</Cell>
            <Cell label="p95" className="text-right tabular-nums">{ms(s.p95)}</Cell>
            <Cell label="p99" className="text-right tabular-nums">{ms(s.p99)}</Cell>
          </Row>
        ))}
      </Table>
      {t.sampleCallIds.length > 0 && (
        <p className="text-sm text-muted">
          History keeps a sample of {t.sampleCallIds.length} call{t.sampleCallIds.length === 1 ? "" : "s"}:{" "}
          {t.sampleCallIds.map((c, i) => (
            <Link key={c} href={`/calls/${c}`} className="text-accent underline" aria-label={`Sampled call ${i + 1}`}>
              #{i + 1}{" "}
            </Link>
          ))}
        </p>
      )}
    </div>
  );
}
