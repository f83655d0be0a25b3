"use client";

import { useId } from "react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { RoleGate } from "@/components/ui/role-gate";
import { formatTime } from "@/components/calls/format";
import type { CollectionDto } from "@/lib/domains/collections";
import { AUTOMATIC_RUN_ORIGINS, type RunOrigin } from "@/lib/domains/collections";
import { useCollectionRuns, useStartRun } from "@/lib/domains/collections/hooks";
import { ViewSwitch } from "@/components/calls/history-views";
import { EnvironmentSelect } from "./environment-select";
import type { RunChoicesState } from "./run-choices";
import { RunStatusBadge } from "./run-status-badge";

/**
 * Run the collection: with an environment or none, stopping at the first failure or running all;
 * the run page opens. The choices are remembered per collection in this browser, so a run never
 * goes without its environment by accident.
 */
export function RunPanel({ collection, choices }: { collection: CollectionDto; choices: RunChoicesState }) {
  const start = useStartRun(collection.id);
  const router = useRouter();
  const { environment, stopOnFailure, choose } = choices;
  const envId = useId();
  const stopId = useId();

  return (
    <section aria-label="Run" className="flex flex-col gap-2 rounded-md border bg-panel p-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={envId} className="text-xs font-medium">
            Environment
          </label>
          <EnvironmentSelect id={envId} className="w-48" value={environment} onPick={(name) => choose({ environment: name })} />
        </div>
        <div className="flex h-8 items-center gap-2">
          <input id={stopId} type="checkbox" checked={stopOnFailure} onChange={(e) => choose({ stopOnFailure: e.target.checked })} />
          <label htmlFor={stopId} className="text-sm">
            Stop on first failure
          </label>
        </div>
        <RoleGate min="member">
          <Button
            variant="primary"
            busy={start.isPending}
            disabled={collection.steps.length === 0}
            onClick={() =>
              start.mutate({ environment: environment || undefined, stopOnFailure }, { onSuccess: (run) => router.push(`/runs/${run.id}`) })
            }
          >
            Run
          </Button>
        </RoleGate>
        <Link href="/settings/environments" className="ml-auto text-xs text-accent hover:underline">
          Environments
        </Link>
      </div>
      {collection.steps.length === 0 && <p className="text-xs text-muted">Add a step to run the collection.</p>}
      <ErrorAlert error={start.error} title="Could not start the run" />
    </section>
  );
}

/** Which runs a run list shows: people's (the default), or an automatic origin's (`"monitor"`). */
export function runsView(origin: RunOrigin): RunOrigin | undefined {
  return AUTOMATIC_RUN_ORIGINS.includes(origin) ? origin : undefined;
}

/** The collection's newest runs, each linking to its run page: people's, or (`?runs=monitor`) its monitors'. */
export function RecentRuns({ collectionId }: { collectionId: string }) {
  const params = useSearchParams();
  const pathname = usePathname();
  const view = runsView((params.get("runs") ?? "") as RunOrigin);
  const runs = useCollectionRuns(collectionId, { origin: view });
  const href = (runsParam: string | undefined) => {
    const next = new URLSearchParams(params.toString());
    if (runsParam) next.set("runs", runsParam);
    else next.delete("runs");
    const qs = next.toString();
    return qs ? `${pathname}?${qs}` : pathname;
  };
  return (
    <section aria-labelledby="runs-heading" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="runs-heading" className="text-sm font-semibold">
          Recent runs
        </h2>
        <ViewSwitch
          label="Whose runs"
          views={[
            { label: "People's runs", href: href(undefined), active: !view },
            { label: "Monitors", href: href("monitor"), active: view === "monitor" },
          ]}
        />
      </div>
      {runs.error ? (
        <ErrorAlert error={runs.error} title="Could not load the runs" />
      ) : !runs.data ? (
        <p className="text-xs text-muted">Loading runs…</p>
      ) : runs.data.length === 0 ? (
        <p className="text-xs text-muted">{view ? "No monitor has run it yet." : "Nobody has run it yet."}</p>
      ) : (
        <ul aria-label="Runs" className="flex flex-col divide-y rounded-md border">
          {runs.data.slice(0, 20).map((run) => (
            <li key={run.id}>
              <Link href={`/runs/${run.id}`} className="flex flex-wrap items-center gap-3 px-3 py-1.5 text-sm hover:bg-hover">
                <RunStatusBadge status={run.status} />
                <time dateTime={run.startedAt} className="text-xs text-muted tabular-nums">
                  {formatTime(run.startedAt, true)}
                </time>
                <span className="text-xs text-muted">
                  {run.passed} passed · {run.failed} failed · {run.total} steps
                </span>
                {run.environment && <span className="text-xs text-muted">env {run.environment}</span>}
                <span className="ml-auto text-xs text-muted">
                  {run.origin}
                  {run.startedBy ? ` · ${run.startedBy.name}` : ""}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
