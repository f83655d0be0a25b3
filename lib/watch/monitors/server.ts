import "server-only";
import { assertOwnOrAdmin, type Principal } from "@/lib/core/access";
import { audit } from "@/lib/core/audit/server";
import { getCollection, listMonitorRuns } from "@/lib/domains/collections/server";
import type { RunDto } from "@/lib/domains/collections";
import { encryptJson } from "@/lib/core/crypto";
import { notFound, SwitchboardError } from "@/lib/core/errors";
import { publish } from "@/lib/core/events/server";
import { toIncidentDto, toMonitorDto, toTickDto } from "./dto";
import type { IncidentDto, MonitorDto, MonitorSchedule, MonitorTickDto, UptimeDto } from "./index";
import * as q from "./queries";
import { assertMonitorRoom } from "./quota";
import { cronProblem, nextDue } from "./schedule";
import type { CreateMonitor, UpdateMonitor } from "./schemas";
import { computeUptime } from "./uptime";

export { monitorWork, type MonitorWork } from "./scheduler";

function checkSchedule(schedule: MonitorSchedule): void {
  if (!("cron" in schedule)) return;
  const problem = cronProblem(schedule.cron, schedule.timeZone);
  if (problem) throw new SwitchboardError("unprocessable", `schedule.${problem.field}: ${problem.message}`, { path: ["schedule", problem.field] });
}

async function requireCollection(principal: Principal, collectionId: string) {
  try {
    return await getCollection(principal, collectionId);
  } catch (err) {
    if (err instanceof SwitchboardError && err.code === "not_found") throw new SwitchboardError("unprocessable", `collectionId: no collection "${collectionId}" in this workspace`, { path: ["collectionId"] });
    throw err;
  }
}

async function requireMonitor(principal: Principal, id: string): Promise<q.MonitorRow> {
  const row = await q.findMonitorRow({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Monitor");
  return row;
}

async function dtos(rows: q.MonitorRow[]): Promise<MonitorDto[]> {
  if (!rows.length) return [];
  const status = await q.monitorStatus({ ids: rows.map((r) => r.id) });
  return rows.map((r) => toMonitorDto(r, status));
}

const one = async (row: q.MonitorRow) => (await dtos([row]))[0]!;

export async function listMonitors(principal: Principal): Promise<MonitorDto[]> {
  return dtos(await q.listMonitorRows({ workspaceId: principal.workspaceId }));
}

export async function getMonitor(principal: Principal, id: string): Promise<MonitorDto> {
  return one(await requireMonitor(principal, id));
}

export async function createMonitor(principal: Principal, input: CreateMonitor): Promise<MonitorDto> {
  checkSchedule(input.schedule);
  const collection = await requireCollection(principal, input.collectionId);
  await assertMonitorRoom({ workspaceId: principal.workspaceId });
  const row = await q.insertMonitor({
    data: {
      workspaceId: principal.workspaceId,
      name: input.name ?? collection.name,
      collectionId: collection.id,
      environment: input.environment ?? null,
      schedule: JSON.stringify(input.schedule),
      mail: JSON.stringify(input.alerts.mail ?? []),
      webhooks: encryptJson(input.alerts.webhooks ?? []),
      maxDurationMs: input.alerts.maxDurationMs ?? null,
      enabled: input.enabled,
      createdById: principal.userId,
      createdByName: principal.userName,
      nextRunAt: input.enabled ? nextDue(input.schedule, new Date()) : null,
    },
  });
  await audit(principal, { action: "monitor.created", target: { type: "monitor", id: row.id, name: row.name }, details: { collectionId: collection.id, schedule: input.schedule } });
  publish(principal.workspaceId, { type: "monitor", monitorId: row.id });
  return one(row);
}

export async function updateMonitor(principal: Principal, id: string, input: UpdateMonitor): Promise<MonitorDto> {
  const current = await requireMonitor(principal, id);
  assertOwnOrAdmin(principal, current.createdById, "monitor");
  if (input.schedule) checkSchedule(input.schedule);
  const schedule = input.schedule ?? (JSON.parse(current.schedule) as MonitorSchedule);
  const enabled = input.enabled ?? current.enabled;
  // A new schedule, or switching on, starts from now; otherwise the next due time stays.
  const reschedule = input.schedule !== undefined || (enabled && !current.enabled);
  const row = await q.updateMonitor({
    id,
    data: {
      name: input.name,
      environment: input.environment === undefined ? undefined : input.environment,
      schedule: input.schedule ? JSON.stringify(input.schedule) : undefined,
      mail: input.alerts?.mail ? JSON.stringify(input.alerts.mail) : undefined,
      webhooks: input.alerts?.webhooks ? encryptJson(input.alerts.webhooks) : undefined,
      maxDurationMs: input.alerts && "maxDurationMs" in input.alerts ? (input.alerts.maxDurationMs ?? null) : undefined,
      enabled: input.enabled,
      nextRunAt: !enabled ? null : reschedule ? nextDue(schedule, new Date()) : undefined,
    },
  });
  await audit(principal, { action: "monitor.updated", target: { type: "monitor", id, name: row.name }, details: { fields: Object.keys(input) } });
  publish(principal.workspaceId, { type: "monitor", monitorId: id });
  return one(row);
}

export async function deleteMonitor(principal: Principal, id: string): Promise<void> {
  const current = await requireMonitor(principal, id);
  assertOwnOrAdmin(principal, current.createdById, "monitor");
  await q.deleteMonitor({ id });
  await audit(principal, { action: "monitor.deleted", target: { type: "monitor", id, name: current.name } });
  publish(principal.workspaceId, { type: "monitor", monitorId: id });
}

export async function monitorRuns(principal: Principal, id: string, { limit = 50 }: { limit?: number } = {}): Promise<RunDto[]> {
  await requireMonitor(principal, id);
  return listMonitorRuns(principal, id, { limit });
}

export async function monitorIncidents(principal: Principal, id: string, { limit = 50 }: { limit?: number } = {}): Promise<IncidentDto[]> {
  await requireMonitor(principal, id);
  return (await q.listIncidents({ monitorId: id, limit })).map(toIncidentDto);
}

export async function monitorTicks(principal: Principal, id: string, { limit = 50 }: { limit?: number } = {}): Promise<MonitorTickDto[]> {
  await requireMonitor(principal, id);
  return (await q.listTicks({ monitorId: id, limit })).map(toTickDto);
}

export async function monitorUptime(principal: Principal, id: string, { hours }: { hours: number }): Promise<UptimeDto> {
  await requireMonitor(principal, id);
  return computeUptime({ monitorId: id, hours });
}
