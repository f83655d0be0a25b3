"use client";

import { useId, useState } from "react";
import Link from "next/link";
import { Alert, ErrorAlert } from "@/components/ui/alert";
import { Select } from "@/components/ui/field";
import { Skeleton } from "@/components/ui/spinner";
import { formatDuration, formatTime } from "@/components/calls/format";
import { isApiError } from "@/lib/core/api-client";
import type { RunDto } from "@/lib/domains/collections";
import { useCollectionRuns, useRun } from "@/lib/domains/collections/hooks";
import { RunShareButton } from "@/components/shares/run-share-button";
import { MakeMockButton } from "@/components/mocks/make-mock-dialog";
import { RunCompare } from "./run-compare";
import { runsView } from "./run-panel";
import { RunStatusBadge } from "./run-status-badge";
import { RunStepRow } from "./run-step-row";

/** A run: its status and each step as it runs, assertions and diffs, compare with another run. */
export function RunPage({ id }: { id: string }) {
  const run = useRun(id);
  if (run.isPending) {
    return (
      <div className="flex flex-col gap-3 p-6">
        <Skeleton className="h-6 w-64" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  }
  if (run.isError) {
    return (
      <div className="p-6">
        {isApiError(run.error, "not_found") ? (
          <Alert title="Run not found">It belongs to another workspace, or its collection was deleted.</Alert>
        ) : (
          <ErrorAlert error={run.error} title="Could not load the run" />
        )}
      </div>
    );
  }
  return <RunView run={run.data} />;
}

function RunView({ run }: { run: RunDto }) {
  const [compareWith, setCompareWith] = useState("");
  const elapsed = run.finishedAt ? new Date(run.finishedAt).getTime() - new Date(run.startedAt).getTime() : null;
  return (
    <div className="flex flex-col gap-5 p-6">
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="text-xs text-muted">
            Run of{" "}
            <Link href={`/collections/${run.collectionId}`} className="text-accent underline underline-offset-2">
              {run.collectionName}
            </Link>
          </p>
          <h1 className="flex items-center gap-2 text-lg font-semibold tracking-tight">
            <span>Run {formatTime(run.startedAt, true)}</span>
            <RunStatusBadge status={run.status} testId="run-header-status" />
          </h1>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <CompareSelect run={run} value={compareWith} onChange={setCompareWith} />
          <RunShareButton runId={run.id} />
          {run.status !== "running" && <MakeMockButton selection={{ runId: run.id }} what="this run's calls" defaultName={run.collectionName} />}
        </div>
      </div>
      <p aria-live="polite" data-testid="run-summary" className="text-sm">
        {run.status === "running" ? "Running: " : ""}
        {run.passed} passed, {run.failed} failed of {run.total} steps
        {elapsed !== null ? ` in ${formatDuration(elapsed)}` : ""}
        <span className="text-muted">
          {" · "}
          {run.environment ? `environment ${run.environment}` : "no environment"} · {run.stopOnFailure ? "stops on the first failure" : "runs every step"} · {run.origin}
          {run.startedBy ? ` by ${run.startedBy.name}` : ""}
        </span>
      </p>
      <ol aria-label="Steps of the run" className="flex flex-col divide-y rounded-md border">
        {run.steps.map((step) => (
          <RunStepRow key={step.index} runId={run.id} step={step} />
        ))}
      </ol>
      {compareWith && <RunCompare run={run} otherId={compareWith} />}
    </div>
  );
}

/** The runs of the same kind as this one: people's beside a person's run, monitors' beside a monitor's. */
function CompareSelect({ run, value, onChange }: { run: RunDto; value: string; onChange: (id: string) => void }) {
  const runs = useCollectionRuns(run.collectionId, { origin: runsView(run.origin) });
  const id = useId();
  const others = runs.data?.filter((r) => r.id !== run.id) ?? [];
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium">
        Compare with…
      </label>
      <Select id={id} className="w-56" value={value} onChange={(e) => onChange(e.target.value)} disabled={others.length === 0}>
        <option value="">{others.length === 0 ? "No other run yet" : "Another run…"}</option>
        {others.map((r) => (
          <option key={r.id} value={r.id}>
            {formatTime(r.startedAt, true)} · {r.status}
          </option>
        ))}
      </Select>
    </div>
  );
}
