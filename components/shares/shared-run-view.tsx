import type { ReactNode } from "react";
import { formatDuration, formatTime } from "@/components/calls/format";
import { RunStatusBadge } from "@/components/collections/run-status-badge";
import { AssertionRow } from "@/components/collections/run-step-row";
import type { SharedRun, SharedRunStep } from "@/lib/domains/shares";

/**
 * A collection run shown read-only on its public page: the run's outcome and each step's status,
 * duration, error, assertion outcomes and snapshot differences, all as text (no links, no actions).
 */
export function SharedRunView({ run, footer }: { run: SharedRun; footer?: ReactNode }) {
  const elapsed = run.finishedAt ? new Date(run.finishedAt).getTime() - new Date(run.startedAt).getTime() : null;
  return (
    <div className="flex flex-col gap-5" data-testid="shared-run">
      <div className="min-w-0">
        <p className="text-xs text-muted">Run of the collection</p>
        <h1 className="flex items-center gap-2 text-lg font-semibold tracking-tight">
          <span className="truncate">{run.collectionName}</span>
          <RunStatusBadge status={run.status} testId="shared-run-status" />
        </h1>
      </div>
      <p className="text-sm">
        {run.passed} passed, {run.failed} failed of {run.total} steps{elapsed !== null ? ` in ${formatDuration(elapsed)}` : ""}
        <span className="text-muted">
          {" · "}started {formatTime(run.startedAt)} · {run.environment ? `environment ${run.environment}` : "no environment"} ·{" "}
          {run.stopOnFailure ? "stops on the first failure" : "runs every step"}
        </span>
      </p>
      <ol aria-label="Steps of the run" className="flex flex-col divide-y rounded-md border">
        {run.steps.map((step) => (
          <SharedRunStepRow key={step.index} step={step} />
        ))}
      </ol>
      {footer}
    </div>
  );
}

function SharedRunStepRow({ step }: { step: SharedRunStep }) {
  return (
    <li data-testid="shared-run-step" aria-label={`Step ${step.index + 1}: ${step.label}`} className="flex flex-col gap-2 px-3 py-2">
      <div className="flex flex-wrap items-center gap-2">
        <span className="w-6 text-right text-xs text-muted tabular-nums">{step.index + 1}.</span>
        <span className="min-w-0 flex-1 truncate text-sm font-medium">{step.label}</span>
        <RunStatusBadge status={step.status} testId="shared-run-step-status" />
        <span className="w-16 text-right text-xs text-muted tabular-nums">{step.durationMs === null ? "" : formatDuration(step.durationMs)}</span>
      </div>
      {step.error && <p className="pl-8 text-sm text-red-700 dark:text-red-300">{step.error}</p>}
      {step.assertions.length > 0 && (
        <ul aria-label={`Assertions of step ${step.index + 1}`} className="flex flex-col gap-1 pl-8">
          {step.assertions.map((a, i) => (
            <AssertionRow key={i} outcome={a} testId="shared-assertion" />
          ))}
        </ul>
      )}
    </li>
  );
}
