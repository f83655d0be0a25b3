export const ALERT_EVENTS = ["failing", "recovered", "slow", "breaking-change"] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

/** Where an alert goes besides the console. Plain URLs: server-side only (webhook URLs carry tokens). */
export interface AlertTargets {
  mail: string[];
  webhooks: string[];
}

export interface AlertDelivery {
  channel: "mail" | "webhook" | "console";
  /** The address, or for a webhook its masked URL (`scheme://host/…`). */
  target: string;
  ok: boolean;
  detail: string;
}

export interface AlertDto {
  id: string;
  event: AlertEvent;
  createdAt: string;
  text: string;
  /** Console path the alert links to (a run page for monitors, the server's changes for drift). */
  path: string;
  monitor: { id: string; name: string } | null;
  server: { id: string; name: string } | null;
  runId: string | null;
  incidentId: string | null;
  deliveries: AlertDelivery[];
}

/** A webhook URL as the browser may see it: the scheme and host, never the path (Slack's carries a token). */
export function maskWebhook(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/…`;
  } catch {
    return "…";
  }
}

export const alertKeys = {
  all: () => ["alerts"] as const,
  list: () => ["alerts", "list"] as const,
};
