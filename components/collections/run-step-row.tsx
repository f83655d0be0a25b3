"use client";

import Link from "next/link";
import { formatDuration } from "@/components/calls/format";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { RoleGate } from "@/components/ui/role-gate";
import { useAcceptSnapshot } from "@/lib/domains/collections/hooks";
import { cn } from "@/components/ui/cn";
import type { AssertionOutcome, SnapshotDiffEntry, StepRunDto } from "@/lib/domains/collections";
import { KIND_LABEL } from "./assertion-draft";
import { RunStatusBadge } from "./run-status-badge";

/** One step of a run: its status, its call, and each assertion's outcome with a snapshot's differences. */
export function RunStepRow({ runId, step }: { runId: string; step: StepRunDto }) {
  const failed = step.assertions.filter((a) => !a.passed).length;
  return (
    <li data-testid="run-step" aria-label={`Step ${step.index + 1}: ${step.label}`} className="flex flex-col gap-2 px-3 py-2">
      <div className="flex flex-wrap items-center gap-2">
        <span className="w-6 text-right text-xs text-muted tabular-nums">{step.index + 1}.</span>
        <span className="min-w-0 flex-1 truncate text-sm font-medium">{step.label}</span>
        <RunStatusBadge status={step.status} testId="run-step-status" />
        <span className="w-16 text-right text-xs text-muted tabular-nums">{step.durationMs === null ? "" : formatDuration(step.durationMs)}</span>
        {step.callId ? (
          <Link href={`/calls/${step.callId}`} className="text-xs text-accent hover:underline" aria-label={`Open the call of step ${step.index + 1}`}>
            Call
          </Link>
        ) : (
          <span className="w-7" aria-hidden />
        )}
      </div>
      {step.error && <p className="pl-8 text-sm text-red-700 dark:text-red-300">{step.error}</p>}
      {step.assertions.length > 0 && (
        <ul aria-label={`Assertions of step ${step.index + 1}${failed ? `, ${failed} failed` : ""}`} className="flex flex-col gap-1 pl-8">
          {step.assertions.map((a, i) => (
            <AssertionRow key={i} outcome={a} accept={a.kind === "snapshot" && !a.passed && step.callId ? <AcceptSnapshot runId={runId} index={step.index} /> : null} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** One assertion's outcome and snapshot diff; also the shared (public) run's view of it. */
export function AssertionRow({ outcome: a, accept = null, testId = "assertion-outcome" }: { outcome: AssertionOutcome; accept?: React.ReactNode; testId?: string }) {
  return (
    <li data-testid={testId} data-passed={a.passed} className="flex flex-col gap-1 text-sm">
      <span className="flex items-start gap-2">
        <span aria-hidden className={cn("font-bold", a.passed ? "text-emerald-600 dark:text-emerald-400" : "text-red-600 dark:text-red-400")}>
          {a.passed ? "✓" : "✗"}
        </span>
        <span>
          <span className={cn("font-medium", !a.passed && "text-red-700 dark:text-red-300")}>{a.passed ? "Passed" : "Failed"}</span>
          <span className="text-muted"> · {KIND_LABEL[a.kind] ?? a.kind}</span>
          {a.message && <span className="font-mono text-xs">: {a.message}</span>}
        </span>
      </span>
      {a.diff && a.diff.length > 0 && <SnapshotDiff entries={a.diff} />}
      {accept}
    </li>
  );
}

const show = (value: unknown) => (value === undefined ? "—" : JSON.stringify(value));

/** A snapshot's differences, expected beside actual, one row per path. */
export function SnapshotDiff({ entries }: { entries: SnapshotDiffEntry[] }) {
  return (
    // Focusable: on a phone the table scrolls sideways, and a keyboard must be able to scroll it.
    <div tabIndex={0} role="region" aria-label="Differences, scrollable" className="overflow-x-auto rounded-md border focus-visible:outline-2 focus-visible:outline-accent">
      <table aria-label="Snapshot differences" className="w-full border-collapse text-xs">
        <thead>
          <tr className="border-b bg-panel text-left text-muted">
            <th className="px-2 py-1 font-medium">Path</th>
            <th className="px-2 py-1 font-medium">Change</th>
            <th className="px-2 py-1 font-medium">Expected</th>
            <th className="px-2 py-1 font-medium">Actual</th>
          </tr>
        </thead>
        <tbody className="font-mono">
          {entries.map((e, i) => (
            <tr key={i} className="border-b last:border-0">
              <td className="px-2 py-1 whitespace-nowrap">{e.path || "/"}</td>
              <td className="px-2 py-1">{e.change}</td>
              <td className="bg-red-50 px-2 py-1 break-all text-red-900 dark:bg-red-950/50 dark:text-red-200">{show(e.expected)}</td>
              <td className="bg-emerald-50 px-2 py-1 break-all text-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-200">{show(e.actual)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Keeps this step's actual result as the snapshot the next runs compare with. */
function AcceptSnapshot({ runId, index }: { runId: string; index: number }) {
  const accept = useAcceptSnapshot(runId);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <RoleGate min="member">
        <Button size="sm" busy={accept.isPending} disabled={accept.isSuccess} onClick={() => accept.mutate(index)}>
          {accept.isSuccess ? "Kept as the snapshot" : "Accept this result as the snapshot"}
        </Button>
      </RoleGate>
      <ErrorAlert error={accept.error} title="Could not keep the snapshot" className="basis-full" />
    </div>
  );
}
