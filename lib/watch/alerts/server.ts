import "server-only";
import { config } from "@/lib/core/config";
import type { Principal } from "@/lib/core/access";
import { decryptJson, encryptJson } from "@/lib/core/crypto";
import { retryOnOutage } from "@/lib/core/db/client";
import { instanceId } from "@/lib/core/instances";
import { finishClaim, insertClaim, type WorkItem } from "@/lib/core/scheduler";
import { publish } from "@/lib/core/events/server";
import { sendMail } from "@/lib/core/mail/server";
import { findAddressRefusal } from "@/lib/core/net";
import { outboundFetch } from "@/lib/core/net/server";
import { maskWebhook, maskWebhookText, safeDecode, type AlertDelivery, type AlertDto, type AlertEvent, type AlertTargets } from "./index";
import { findAlertRow, insertAlert, listAlertRows, pendingAlertRows, setAlertDeliveries, type AlertRow, type Tx } from "./queries";

const WEBHOOK_TIMEOUT_MS = 10_000;

export interface RaiseAlertInput {
  workspaceId: string;
  event: AlertEvent;
  monitor?: { id: string; name: string };
  server?: { id: string; name: string };
  runId?: string;
  /** The run's status, for the webhook body's `run`. */
  runStatus?: string;
  incidentId?: string;
  /** Console path the alert links to, e.g. `/runs/<id>`. */
  path: string;
  text: string;
  targets: AlertTargets;
}

/** The absolute link of a console path: `SWITCHBOARD_URL`'s origin, or the bare path when it is not set. */
export function alertLink(path: string): string {
  const base = config().url;
  if (!base) return path;
  return new URL(path, new URL(base).origin).toString();
}

function toDto(row: AlertRow): AlertDto {
  return {
    id: row.id,
    event: row.event as AlertEvent,
    createdAt: row.createdAt.toISOString(),
    text: row.text,
    path: row.path,
    monitor: row.monitorId ? { id: row.monitorId, name: row.monitorName ?? "" } : null,
    server: row.serverId ? { id: row.serverId, name: row.serverName ?? "" } : null,
    runId: row.runId,
    incidentId: row.incidentId,
    // Deliveries recorded before their details were masked may quote a webhook URL.
    deliveries: (JSON.parse(row.deliveries) as AlertDelivery[]).map((d) => ({ ...d, detail: maskWebhookText({ text: d.detail }) })),
  };
}

/** fetch refuses a URL with credentials: they go as HTTP basic authentication, as curl sends them. */
function withoutCredentials(url: string): { href: string; headers: Record<string, string> } {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed || (!parsed.username && !parsed.password)) return { href: url, headers: {} };
  const basic = Buffer.from(`${safeDecode(parsed.username)}:${safeDecode(parsed.password)}`).toString("base64");
  parsed.username = "";
  parsed.password = "";
  return { href: parsed.href, headers: { authorization: `Basic ${basic}` } };
}

async function postWebhook(workspaceId: string, url: string, body: string): Promise<AlertDelivery> {
  const target = maskWebhook(url);
  const { href, headers } = withoutCredentials(url);
  const send = async () => {
    const response = await outboundFetch({ workspaceId })(href, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      redirect: "error",
    });
    await response.body?.cancel().catch(() => undefined);
    return response;
  };
  let detail = "";
  // One retry at most, and only for a network failure or a 5xx (a refusal by the policy is final).
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const response = await send();
      if (response.ok) return { channel: "webhook", target, ok: true, detail: `HTTP ${response.status}` };
      detail = `HTTP ${response.status}`;
      if (response.status < 500) break;
    } catch (err) {
      const refusal = findAddressRefusal(err);
      if (refusal) return { channel: "webhook", target, ok: false, detail: maskWebhookText({ text: refusal.message, url }) };
      const e = err as Error & { cause?: Error };
      detail = e.cause?.message ?? e.message;
    }
  }
  return { channel: "webhook", target, ok: false, detail: maskWebhookText({ text: detail, url }) };
}

const consoleDelivery: AlertDelivery = { channel: "console", target: "console", ok: true, detail: "listed" };
/** How long the outcome of a delivery is retried through a database outage before it stays "pending". */
const RECORD_RETRY_MS = 5 * 60_000;

/**
 * Records an alert (the console channel) with each mail and webhook delivery `pending`: an alert
 * whose deliveries never ran, or whose outcome could not be recorded, shows so. In `tx` when given
 * (a monitor's alert commits with the incident that raised it, so it is raised once or not at all).
 */
export function recordAlert({ input, tx }: { input: RaiseAlertInput; tx?: Tx }): Promise<AlertRow> {
  const pending = (channel: "mail" | "webhook", target: string): AlertDelivery => ({ channel, target, ok: false, detail: "pending" });
  const deliveries = [consoleDelivery, ...input.targets.mail.map((to) => pending("mail", to)), ...input.targets.webhooks.map((hook) => pending("webhook", maskWebhook(hook)))];
  return insertAlert({
    tx,
    data: {
      workspaceId: input.workspaceId,
      event: input.event,
      text: input.text,
      path: input.path,
      monitorId: input.monitor?.id ?? null,
      monitorName: input.monitor?.name ?? null,
      serverId: input.server?.id ?? null,
      serverName: input.server?.name ?? null,
      runId: input.runId ?? null,
      incidentId: input.incidentId ?? null,
      deliveries: JSON.stringify(deliveries),
      targets: deliveries.length > 1 ? encryptJson(input.targets) : null,
    },
  });
}

/** The job whose claims make each alert's delivery happen once across instances (lib/start/jobs.ts). */
export const DELIVERY_JOB = "alerts.deliver";
/** A delivery claim is never taken over (a half-sent alert is not sent twice): its lease only says how long it was held. */
const DELIVERY_LEASE_MS = 60_000;
/** Alerts older than this are not delivered any more (they stay listed, their deliveries "pending"). */
const DELIVERY_WINDOW_MS = 24 * 3_600_000;

/** Claims the delivery of an alert for this instance: false when another instance has (or had) it. */
function claimDelivery(row: AlertRow): Promise<boolean> {
  const claim = { job: DELIVERY_JOB, key: row.id, dueAt: row.createdAt };
  return retryOnOutage({ attempt: () => insertClaim({ claim, instanceId: instanceId(), leaseMs: DELIVERY_LEASE_MS }), deadlineMs: RECORD_RETRY_MS }).catch(() => false);
}

/**
 * The `alerts.deliver` job's work: alerts whose deliveries are still pending `graceMs` after they
 * were raised (their instance died, or could not claim them through an outage).
 */
export async function pendingDeliveries({ graceMs }: { graceMs: number }): Promise<WorkItem[]> {
  const now = Date.now();
  const rows = await pendingAlertRows({ from: new Date(now - DELIVERY_WINDOW_MS), to: new Date(now - graceMs) });
  return rows.map((row) => ({ key: row.id, dueAt: row.createdAt }));
}

/** Delivers an alert another instance recorded and never delivered (the job has claimed it). */
export async function deliverPending({ alertId }: { alertId: string }): Promise<string | void> {
  const row = await findAlertRow({ id: alertId });
  if (!row?.targets) return;
  const input: RaiseAlertInput = {
    workspaceId: row.workspaceId,
    event: row.event as AlertEvent,
    ...(row.monitorId ? { monitor: { id: row.monitorId, name: row.monitorName ?? "" } } : {}),
    ...(row.serverId ? { server: { id: row.serverId, name: row.serverName ?? "" } } : {}),
    ...(row.runId ? { runId: row.runId } : {}),
    ...(row.incidentId ? { incidentId: row.incidentId } : {}),
    path: row.path,
    text: row.text,
    targets: decryptJson<AlertTargets>(row.targets),
  };
  const dto = await send({ row, input });
  return `delivered (${dto.deliveries.filter((d) => d.channel !== "console" && d.ok).length} of ${dto.deliveries.length - 1} sent)`;
}

/**
 * Sends a recorded alert by mail and to each webhook, once, and stores each outcome on the row
 * (retried through a database outage). Never throws for a delivery: a refused or failing target is a failed delivery.
 */
export async function deliverAlert({ row, input }: { row: AlertRow; input: RaiseAlertInput }): Promise<AlertDto> {
  // People see it in the console now; mail and webhooks may take seconds more.
  publishAlert(row);
  if (!row.targets) return toDto(row);
  if (!(await claimDelivery(row))) return toDto(row);
  const dto = await send({ row, input });
  const claim = { job: DELIVERY_JOB, key: row.id, dueAt: row.createdAt };
  await finishClaim({ claim, instanceId: instanceId(), outcome: "ok" }).catch(() => undefined);
  return dto;
}

async function send({ row, input }: { row: AlertRow; input: RaiseAlertInput }): Promise<AlertDto> {
  const url = alertLink(input.path);
  const body = JSON.stringify({
    event: input.event,
    monitor: input.monitor ? { id: input.monitor.id, name: input.monitor.name } : undefined,
    server: input.server ? { id: input.server.id, name: input.server.name } : undefined,
    run: input.runId ? { id: input.runId, status: input.runStatus ?? null } : undefined,
    url,
    text: input.text,
  });
  const subject = `[Switchboard] ${input.text}`.slice(0, 200);
  const deliveries = await Promise.all([
    ...input.targets.mail.map(async (to): Promise<AlertDelivery> => {
      const outcome = await sendMail({ to, subject, text: `${input.text}\n\n${url}\n` });
      return { channel: "mail", target: to, ok: outcome.sent, detail: outcome.sent ? "sent" : outcome.reason };
    }),
    ...input.targets.webhooks.map((hook) => postWebhook(input.workspaceId, hook, body)),
  ]);
  const record = () => setAlertDeliveries({ id: row.id, deliveries: JSON.stringify([consoleDelivery, ...deliveries]) });
  const stored = deliveries.length
    ? await retryOnOutage({ attempt: record, deadlineMs: RECORD_RETRY_MS }).catch((err: unknown) => {
        // Sent, but the outcome could not be stored: the row keeps saying "pending" (never sent again).
        console.error(`[alerts] the deliveries of alert ${row.id} could not be recorded`, err);
        return row;
      })
    : row;
  publishAlert(stored);
  return toDto(stored);
}

/** Tells the workspace's browsers about an alert: its list refreshes, and whoever may act on it sees a notice. */
function publishAlert(row: AlertRow): void {
  publish(row.workspaceId, { type: "alert", alertId: row.id, event: row.event, text: row.text, path: row.path, createdAt: row.createdAt.toISOString() });
}

/** Records an alert (through a database outage, for a while), then delivers it: `recordAlert` and `deliverAlert`. */
export async function raiseAlert(input: RaiseAlertInput): Promise<AlertDto> {
  const row = await retryOnOutage({ attempt: () => recordAlert({ input }), deadlineMs: RECORD_RETRY_MS });
  return deliverAlert({ row, input });
}

export { markAlertsRead, unreadAlerts } from "./unread";

/** The workspace's alerts, newest first. */
export async function listAlerts(principal: Principal, opts: { limit?: number } = {}): Promise<AlertDto[]> {
  const rows = await listAlertRows({ workspaceId: principal.workspaceId, limit: Math.min(Math.max(opts.limit ?? 100, 1), 500) });
  return rows.map(toDto);
}
