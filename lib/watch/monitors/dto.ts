import { decryptJson } from "@/lib/core/crypto";
import { maskWebhook } from "@/lib/watch/alerts";
import type { IncidentDto, IncidentKind, MonitorDto, MonitorSchedule, MonitorTickDto } from "./index";
import type { MonitorRow, monitorStatus } from "./queries";

type Status = Awaited<ReturnType<typeof monitorStatus>>;
type IncidentRow = Status["incidents"][number];
type TickRow = Status["ticks"][number];

export function toIncidentDto(row: IncidentRow): IncidentDto {
  return { id: row.id, kind: row.kind as IncidentKind, startedAt: row.startedAt.toISOString(), endedAt: row.endedAt?.toISOString() ?? null, runIds: JSON.parse(row.runIds) as string[] };
}

export function toTickDto(row: TickRow): MonitorTickDto {
  return { id: row.id, dueAt: row.dueAt.toISOString(), instanceId: row.instanceId, outcome: row.outcome as "ran" | "skipped", reason: row.reason, runId: row.runId };
}

export function webhookUrls(row: { webhooks: string }): string[] {
  return row.webhooks ? decryptJson<string[]>(row.webhooks) : [];
}

export function toMonitorDto(row: MonitorRow, status: Status): MonitorDto {
  const runs = status.runs.find((r) => r.monitorId === row.id);
  const run = runs?.latest ?? null;
  const open = status.incidents.filter((i) => i.monitorId === row.id);
  const failing = open.find((i) => i.kind === "failing");
  const slow = open.find((i) => i.kind === "slow");
  const tick = status.ticks.find((t) => t.monitorId === row.id);
  // A run in progress (or one the console interrupted) says nothing yet: the last settled run does.
  const settled = runs?.settled?.status;
  const state: MonitorDto["state"] = failing ? "failing" : slow ? "slow" : settled === "passed" ? "passing" : settled ? "failing" : "unknown";
  return {
    id: row.id,
    name: row.name,
    collectionId: row.collectionId,
    collectionName: row.collection.name,
    environment: row.environment,
    schedule: JSON.parse(row.schedule) as MonitorSchedule,
    alerts: { mail: JSON.parse(row.mail) as string[], webhooks: webhookUrls(row).map(maskWebhook), maxDurationMs: row.maxDurationMs },
    enabled: row.enabled,
    createdById: row.createdById,
    createdByName: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    nextRunAt: row.enabled ? (row.nextRunAt?.toISOString() ?? null) : null,
    lastRun: run ? { id: run.id, status: run.status, startedAt: run.startedAt.toISOString(), durationMs: run.finishedAt ? run.finishedAt.getTime() - run.startedAt.getTime() : null } : null,
    state,
    openIncident: failing || slow ? toIncidentDto((failing ?? slow)!) : null,
    lastSkip: tick?.outcome === "skipped" ? { at: tick.dueAt.toISOString(), reason: tick.reason ?? "" } : null,
  };
}
