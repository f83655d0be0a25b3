"use client";

import { useState } from "react";
import Link from "next/link";
import { CallStatusBadge } from "@/components/calls/call-status-badge";
import { formatTime } from "@/components/calls/format";
import { TASK_STATUS_LABEL } from "@/components/calls/task-status";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Spinner } from "@/components/ui/spinner";
import type { CallSummary } from "@/lib/domains/calls";
import { useCancelTask, useTaskCalls } from "@/lib/domains/calls/hooks";
import type { ServerDto } from "@/lib/domains/servers";
import { SessionPicker } from "./session-picker";
import { RoleGate } from "@/components/ui/role-gate";

/**
 * A session's task calls, newest first, live: `task` events and a poll while one runs refresh it.
 * Without a current session it lists the server's task calls from every session.
 */
export function TaskPanel({ server }: { server: ServerDto }) {
  const live = server.status === "connected" ? (server.session?.id ?? null) : null;
  const [picked, setPicked] = useState("");
  const sessionId = picked || live;
  const tasks = useTaskCalls(server.id, sessionId);
  const cancel = useCancelTask();
  const items = tasks.data ?? [];

  return (
    <section aria-label="Tasks" className="flex min-h-0 flex-col gap-3 p-4">
      <div className="flex flex-wrap items-center gap-2">
        <SessionPicker serverId={server.id} currentId={live} value={picked} onChange={setPicked} />
        {!sessionId && <span className="text-xs text-muted">Showing task calls from all of this server&apos;s sessions.</span>}
      </div>
      <ErrorAlert error={tasks.error} title="Could not load the tasks" />
      <ErrorAlert error={cancel.error} title="Could not cancel the task" />
      {items.length === 0 && !tasks.isPending ? (
        <EmptyState title="No tasks">Tools that run as tasks (execution.taskSupport) show up here with their status and result.</EmptyState>
      ) : (
        <table aria-label="Task calls" className="sb-table w-full border-collapse rounded-md border text-left text-xs">
          <thead className="text-muted">
            <tr className="border-b">
              <th className="px-2 py-1 font-medium">Tool</th>
              <th className="px-2 py-1 font-medium">Task status</th>
              <th className="px-2 py-1 font-medium">Status message</th>
              <th className="px-2 py-1 font-medium">Task id</th>
              <th className="px-2 py-1 font-medium">Poll interval</th>
              <th className="px-2 py-1 font-medium">Started</th>
              <th className="px-2 py-1" aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {items.map((call) => (
              <TaskRow key={call.id} call={call} cancelling={cancel.isPending && cancel.variables === call.id} onCancel={() => cancel.mutate(call.id)} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function TaskRow({ call, cancelling, onCancel }: { call: CallSummary; cancelling: boolean; onCancel: () => void }) {
  const task = call.task;
  if (!task) return null;
  const running = call.status === "pending";
  return (
    <tr aria-label={`Task ${task.id}`} className="border-b align-top last:border-b-0">
      <td className="px-2 py-1.5">
        <Link href={`/calls/${call.id}`} className="font-mono text-blue-600 underline">
          {call.name}
        </Link>
      </td>
      <td className="px-2 py-1.5">
        <span className="inline-flex items-center gap-1.5">
          {running && <Spinner className="size-3" />}
          <span data-testid="task-row-status">{TASK_STATUS_LABEL[task.status] ?? task.status}</span>
          <CallStatusBadge status={call.status} isError={call.isError} testId="task-row-call-status" />
        </span>
      </td>
      <td data-label="Status message" className="max-w-64 px-2 py-1.5 break-words text-muted">{task.statusMessage ?? "—"}</td>
      <td data-label="Task id" className="max-w-40 truncate px-2 py-1.5 font-mono" title={task.id}>
        {task.id}
      </td>
      <td data-label="Poll interval" className="px-2 py-1.5 whitespace-nowrap">{task.pollIntervalMs !== null ? `${task.pollIntervalMs} ms` : "server default"}</td>
      <td data-label="Started" className="px-2 py-1.5 whitespace-nowrap">
        <time dateTime={call.startedAt}>{formatTime(call.startedAt, true)}</time>
      </td>
      <td className="px-2 py-1.5 text-right">
        {running && (
          <RoleGate min="member">
          <Button size="sm" variant="secondary" busy={cancelling} onClick={onCancel}>
            Cancel task
          </Button>
          </RoleGate>
        )}
      </td>
    </tr>
  );
}
