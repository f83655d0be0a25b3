import { actionRole, roleAtLeast, type Action, type Role } from "@/lib/core/access";

export const ALERT_EVENTS = ["failing", "recovered", "slow", "breaking-change", "definitions-withheld", "approval-requested"] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

/**
 * The alerts that ask someone to act, and the action each asks for (its role read from the matrix):
 * a monitor's incident opened (fix the monitor or what it checks), a breaking change arrived (fix
 * the server's entry). "recovered" is news, not work: it counts nowhere and brings no notice;
 * "approval-requested" (a held call's mail and webhook notice) has the Approvals badge and notice instead.
 */
const ACTS_ON: Partial<Record<AlertEvent, Action>> = { failing: "editMonitor", slow: "editMonitor", "breaking-change": "editServer", "definitions-withheld": "editServer" };

/** Whether `role` may act on an alert of `event`: the unread count counts, and the live notice shows, only these. */
export function mayActOn(role: Role, event: string): boolean {
  const action = ACTS_ON[event as AlertEvent];
  return action !== undefined && roleAtLeast(role, actionRole(action));
}

/** The events of the alerts `role` may act on. */
export function actionableEvents(role: Role): AlertEvent[] {
  return ALERT_EVENTS.filter((event) => mayActOn(role, event));
}

/** `GET /api/v1/alerts/unread`: how many alerts the caller may act on arrived after those they have seen. */
export interface UnreadAlertsDto {
  count: number;
  /** The createdAt of the newest alert the caller has seen (null: never opened Alerts; counted from when they joined). */
  seenAt: string | null;
}

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

/** A webhook URL as the browser may see it: the scheme and host, never the credentials or the path (Slack's carries a token). */
export function maskWebhook(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}/…`;
  } catch {
    return "…";
  }
}

// Any absolute URL in a text (an error message may quote the one it failed on).
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;
// A shorter piece (a one-letter user name) would blot out unrelated letters of the text.
const MIN_SECRET_LENGTH = 4;

/**
 * Text about a webhook (a delivery's error) as the browser may see it: every URL in it masked as
 * maskWebhook does, and the webhook's own credentials, path and query removed wherever they
 * appear. Without `url`, only the URLs are masked (deliveries recorded before).
 */
export function maskWebhookText({ text, url }: { text: string; url?: string }): string {
  let masked = text.replace(URL_IN_TEXT, (found) => maskWebhook(found));
  for (const secret of url === undefined ? [] : webhookSecrets(url)) masked = masked.split(secret).join("…");
  return masked;
}

function webhookSecrets(url: string): string[] {
  if (!URL.canParse(url)) return [url];
  const parsed = new URL(url);
  const raw = [parsed.username, parsed.password, parsed.search.slice(1), ...parsed.searchParams.values()];
  if (parsed.pathname !== "/") raw.push(parsed.pathname);
  const pieces = raw.flatMap((piece) => [piece, safeDecode(piece)]).filter((piece) => piece.length >= MIN_SECRET_LENGTH);
  // Longest first, so a query is removed whole before its values.
  return [url, ...new Set(pieces)].sort((a, b) => b.length - a.length);
}

/** A percent-encoded piece of a URL decoded, or as it is when it does not decode. */
export function safeDecode(piece: string): string {
  try {
    return decodeURIComponent(piece);
  } catch {
    return piece;
  }
}

export const alertKeys = {
  all: () => ["alerts"] as const,
  list: () => ["alerts", "list"] as const,
  unread: () => ["alerts", "unread"] as const,
};
