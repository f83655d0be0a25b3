import "server-only";
import type { Principal } from "@/lib/access";
import { publish } from "@/lib/events/server";
import { sendMail } from "@/lib/mail/server";
import { findAddressRefusal } from "@/lib/net";
import { outboundFetch } from "@/lib/net/server";
import { maskWebhook, type AlertDelivery, type AlertDto, type AlertEvent, type AlertTargets } from "./index";
import { insertAlert, listAlertRows, setAlertDeliveries, type AlertRow } from "./queries";

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
  const base = process.env.SWITCHBOARD_URL;
  if (!base || !URL.canParse(base)) return path;
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
    deliveries: JSON.parse(row.deliveries) as AlertDelivery[],
  };
}

async function postWebhook(workspaceId: string, url: string, body: string): Promise<AlertDelivery> {
  const target = maskWebhook(url);
  const send = async () => {
    const response = await outboundFetch({ workspaceId })(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
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
      if (refusal) return { channel: "webhook", target, ok: false, detail: refusal.message };
      const e = err as Error & { cause?: Error };
      detail = e.cause?.message ?? e.message;
    }
  }
  return { channel: "webhook", target, ok: false, detail };
}

/**
 * Records an alert (the console channel), then delivers it by mail and to each webhook, storing
 * each outcome on the row. Never throws for a delivery: a refused or failing target is a failed delivery.
 */
export async function raiseAlert(input: RaiseAlertInput): Promise<AlertDto> {
  const consoleDelivery: AlertDelivery = { channel: "console", target: "console", ok: true, detail: "listed" };
  const row = await insertAlert({
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
      deliveries: JSON.stringify([consoleDelivery]),
    },
  });
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
  const stored = deliveries.length ? await setAlertDeliveries({ id: row.id, deliveries: JSON.stringify([consoleDelivery, ...deliveries]) }) : row;
  publish(input.workspaceId, { type: "alert", alertId: row.id });
  return toDto(stored);
}

/** The workspace's alerts, newest first. */
export async function listAlerts(principal: Principal, opts: { limit?: number } = {}): Promise<AlertDto[]> {
  const rows = await listAlertRows({ workspaceId: principal.workspaceId, limit: Math.min(Math.max(opts.limit ?? 100, 1), 500) });
  return rows.map(toDto);
}
