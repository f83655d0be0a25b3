"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/alert";
import { Spinner } from "@/components/ui/spinner";
import type { CallDto } from "@/lib/domains/calls";
import { useCall, useCancelTask } from "@/lib/domains/calls/hooks";
import { ResultView } from "./result-view";
import { RoleGate } from "@/components/ui/role-gate";

/** How a task status reads in the UI. */
export const TASK_STATUS_LABEL: Record<string, string> = {
  working: "Working",
  input_required: "Input required",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
};

/** A task call's task: status, status message, poll interval and Cancel while it runs. */
export function TaskStatus({ call }: { call: CallDto }) {
  const cancel = useCancelTask();
  if (!call.task) return null;
  const running = call.status === "pending";
  return (
    <section aria-label="Task" className="flex flex-col gap-2 rounded-md border p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold">Task</h3>
        <span data-testid="task-status" className="inline-flex items-center gap-1.5">
          {running && <Spinner className="size-3" />}
          {TASK_STATUS_LABEL[call.task.status] ?? call.task.status}
        </span>
        {running && (
          <RoleGate min="member">
          <Button size="sm" variant="secondary" className="ml-auto" busy={cancel.isPending} onClick={() => cancel.mutate(call.id)}>
            Cancel task
          </Button>
          </RoleGate>
        )}
      </div>
      {call.task.statusMessage && (
        <p data-testid="task-status-message" className="text-muted">
          {call.task.statusMessage}
        </p>
      )}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-xs text-muted">
        <dt>Task id</dt>
        <dd className="truncate font-mono">{call.task.id}</dd>
        <dt>Poll interval</dt>
        <dd>{call.task.pollIntervalMs !== null ? `${call.task.pollIntervalMs} ms` : "server default"}</dd>
      </dl>
      {running && <p className="text-xs text-muted">The console keeps polling and stores the result on the call, whether or not this page stays open.</p>}
      <ErrorAlert error={cancel.error} title="Could not cancel the task" />
    </section>
  );
}

/** A task call started from a runner: live task state (polled), then its result; links to the permalink. */
export function TaskRun({ call, outputSchema }: { call: CallDto; outputSchema: unknown }) {
  const live = useCall(call.id);
  const current = live.data ?? call;
  return (
    <div className="flex flex-col gap-3">
      <TaskStatus call={current} />
      {current.status === "pending" && (
        <Link href={`/calls/${current.id}`} className="text-xs text-blue-600 underline">
          Open this call&apos;s page
        </Link>
      )}
      {current.status !== "pending" && <ResultView call={current} outputSchema={outputSchema ?? null} />}
    </div>
  );
}
