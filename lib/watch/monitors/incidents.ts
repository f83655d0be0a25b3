import "server-only";
import { deliverAlert, recordAlert, type RaiseAlertInput } from "@/lib/watch/alerts/server";
import type { AlertEvent, AlertTargets } from "@/lib/watch/alerts";
import type { RunDto } from "@/lib/domains/collections";
import { isUniqueViolation } from "@/lib/core/db/client";
import { publish } from "@/lib/core/events/server";
import { webhookUrls } from "./dto";
import type { IncidentKind } from "./index";
import * as q from "./queries";

/** A run the console ended (its instance's stop or loss, its database's outage): it says nothing about the servers it called. */
const interrupted = (run: RunDto) => run.status === "interrupted" || run.steps.some((s) => s.status === "interrupted");

/** The first failing step in words, for the alert: `step 2 "echo": /content/0/text: expected "a", got "b"`. */
function firstFailure(run: RunDto): string {
  const step = run.steps.find((s) => s.status === "failed" || s.status === "error");
  if (!step) return "";
  const why = step.error ?? step.assertions.find((a) => !a.passed)?.message ?? step.status;
  return ` First failure: step ${step.index + 1} "${step.label}": ${why.length > 300 ? `${why.slice(0, 300)}…` : why}`;
}

type Monitor = NonNullable<Awaited<ReturnType<typeof q.findMonitorRow>>>;
/** An alert recorded with its incident's change, to deliver once that change committed. */
type Recorded = { row: Awaited<ReturnType<typeof recordAlert>>; input: RaiseAlertInput };
type AlertOf = (incidentId: string) => RaiseAlertInput;

/**
 * Adds a bad run to the monitor's open incident of `kind`, or opens one with its alert (in one
 * transaction: the alert is raised once, with the incident, or not at all). Two instances opening
 * at once: the unique open key lets one win, the other appends.
 */
async function openOrAppend(monitor: Monitor, kind: IncidentKind, runId: string, alert: AlertOf): Promise<Recorded | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const open = await q.findOpenIncident({ monitorId: monitor.id, kind });
    if (open) {
      const runIds = JSON.parse(open.runIds) as string[];
      if (!runIds.includes(runId)) await q.setIncidentRuns({ id: open.id, runIds: JSON.stringify([...runIds, runId]) });
      return null;
    }
    try {
      const data = { workspaceId: monitor.workspaceId, monitorId: monitor.id, kind, runIds: JSON.stringify([runId]) };
      return await q.openIncident({ data, within: async (tx, incidentId) => ({ row: await recordAlert({ input: alert(incidentId), tx }), input: alert(incidentId) }) });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  return null;
}

/** Closes the monitor's open incident of `kind`, with its alert if any; true when this call closed it. */
async function close(monitor: Monitor, kind: IncidentKind, at: Date, alert?: AlertOf): Promise<{ closed: boolean; recorded: Recorded | null }> {
  const open = await q.findOpenIncident({ monitorId: monitor.id, kind });
  if (!open) return { closed: false, recorded: null };
  const done = await q.closeIncident({ id: open.id, at, within: async (tx) => ({ recorded: alert ? { row: await recordAlert({ input: alert(open.id), tx }), input: alert(open.id) } : null }) });
  return { closed: done !== null, recorded: done?.recorded ?? null };
}

/**
 * A monitor's run finished: failed or error runs open (or extend) a `failing` incident, a passed run
 * closes it; a run over `maxDurationMs` opens (or extends) a `slow` one, a run within closes it
 * silently. One alert when an incident opens, one when a failing incident recovers, recorded with
 * the incident's change and delivered after it: safe to call again after a database outage.
 */
export async function afterRun({ workspaceId, monitorId, run }: { workspaceId: string; monitorId: string; run: RunDto }): Promise<void> {
  if (interrupted(run) || run.status === "running") return;
  const monitor = await q.findMonitorRow({ workspaceId, id: monitorId });
  if (!monitor) return;
  const targets: AlertTargets = { mail: JSON.parse(monitor.mail) as string[], webhooks: webhookUrls(monitor) };
  const at = new Date(run.finishedAt ?? Date.now());
  const alert =
    (event: AlertEvent, text: string): AlertOf =>
    (incidentId) => ({ workspaceId: monitor.workspaceId, event, monitor: { id: monitor.id, name: monitor.name }, runId: run.id, runStatus: run.status, incidentId, path: `/runs/${run.id}`, text, targets });
  // Each alert is sent once, by the instance whose write recorded it, as soon as that write committed.
  const deliver = async (recorded: Recorded | null) => void (recorded && (await deliverAlert(recorded)));
  let changed = false;
  if (run.status === "passed") {
    const closed = await close(monitor, "failing", at, alert("recovered", `Monitor "${monitor.name}" recovered: its run passed (${run.passed} of ${run.total} steps).`));
    changed ||= closed.closed;
    await deliver(closed.recorded);
  } else {
    const opened = await openOrAppend(monitor, "failing", run.id, alert("failing", `Monitor "${monitor.name}" is failing: its run ${run.status} (${run.failed} of ${run.total} steps failed).${firstFailure(run)}`));
    changed = true;
    await deliver(opened);
  }
  if (monitor.maxDurationMs !== null && run.finishedAt) {
    const durationMs = new Date(run.finishedAt).getTime() - new Date(run.startedAt).getTime();
    if (durationMs > monitor.maxDurationMs) {
      const opened = await openOrAppend(monitor, "slow", run.id, alert("slow", `Monitor "${monitor.name}" is slow: its run took ${durationMs} ms, over its budget of ${monitor.maxDurationMs} ms.`));
      changed = true;
      await deliver(opened);
    } else if ((await close(monitor, "slow", at)).closed) changed = true;
  }
  if (changed) publish(monitor.workspaceId, { type: "monitor", monitorId: monitor.id });
}
