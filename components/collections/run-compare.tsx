"use client";

import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { formatTime } from "@/components/calls/format";
import type { RunDto, StepRunDto } from "@/lib/domains/collections";
import { useRun } from "@/lib/domains/collections/hooks";
import { RunStatusBadge } from "./run-status-badge";

/** What changed in one step between two runs, in words. */
export function stepChange(a: StepRunDto | undefined, b: StepRunDto | undefined): string {
  if (!a) return "only in B";
  if (!b) return "only in A";
  const changes: string[] = [];
  if (a.status !== b.status) changes.push(`${a.status} → ${b.status}`);
  const before = new Set(a.assertions.filter((x) => !x.passed).map((x) => x.message));
  const after = new Set(b.assertions.filter((x) => !x.passed).map((x) => x.message));
  const fixed = [...before].filter((m) => !after.has(m));
  const broke = [...after].filter((m) => !before.has(m));
  if (fixed.length) changes.push(`now passing: ${fixed.join("; ")}`);
  if (broke.length) changes.push(`now failing: ${broke.join("; ")}`);
  if (a.error !== b.error && b.error) changes.push(`error: ${b.error}`);
  return changes.join(" · ") || "no change";
}

/** Steps paired by their id across two runs of the same collection, in B's order then A's leftovers. */
type Pair = { key: string; label: string; a?: StepRunDto; b?: StepRunDto };

function pairSteps(a: RunDto, b: RunDto): Pair[] {
  const byId = new Map(a.steps.map((s) => [s.stepId, s]));
  const rows = b.steps.map((s): Pair => {
    const other = byId.get(s.stepId);
    byId.delete(s.stepId);
    return { key: s.stepId, label: s.label, a: other, b: s };
  });
  for (const s of byId.values()) rows.push({ key: s.stepId, label: s.label, a: s, b: undefined });
  return rows;
}

/** Two runs side by side, the earlier as A (as call Compare does), each step's status in both, and what changed. */
export function RunCompare({ run, otherId }: { run: RunDto; otherId: string }) {
  const other = useRun(otherId);
  if (other.error) return <ErrorAlert error={other.error} title="Could not load the other run" />;
  if (!other.data) return <p className="text-xs text-muted">Loading the other run…</p>;
  const o = other.data;
  const [a, b] = Date.parse(o.startedAt) < Date.parse(run.startedAt) ? [o, run] : [run, o];
  const rows = pairSteps(a, b);
  const side = (r: RunDto) => `${formatTime(r.startedAt, true)}${r.id === run.id ? " (this run)" : ""}`;
  return (
    <section aria-label="Run comparison" className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold">
        Compared with the run of{" "}
        <Link href={`/runs/${o.id}`} className="text-accent underline underline-offset-2">
          {formatTime(o.startedAt, true)}
        </Link>
        <span className="font-normal text-muted"> · A ran first.</span>
      </h2>
      <div className="overflow-x-auto rounded-md border">
        <table className="w-full border-collapse text-sm" aria-label="Steps in both runs">
          <thead>
            <tr className="border-b bg-panel text-left text-xs text-muted">
              <th className="px-2 py-1 font-medium">Step</th>
              <th className="px-2 py-1 font-medium" data-testid="compare-a-heading">
                A: {side(a)}
              </th>
              <th className="px-2 py-1 font-medium" data-testid="compare-b-heading">
                B: {side(b)}
              </th>
              <th className="px-2 py-1 font-medium">What changed (A → B)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} data-testid="compare-step" className="border-b last:border-0">
                <td className="px-2 py-1">{row.label}</td>
                <td className="px-2 py-1">{row.a ? <RunStatusBadge status={row.a.status} testId="compare-a" /> : "—"}</td>
                <td className="px-2 py-1">{row.b ? <RunStatusBadge status={row.b.status} testId="compare-b" /> : "—"}</td>
                <td className="px-2 py-1 text-xs">{stepChange(row.a, row.b)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
