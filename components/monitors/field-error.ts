import { isApiError } from "@/lib/core/api-client";

/** The form's fields an API error can name. */
export type MonitorField = "collection" | "name" | "environment" | "everySeconds" | "cron" | "timeZone" | "schedule" | "mail" | "webhooks" | "maxDuration";

// Most specific first: "schedule.timeZone" is the time zone's field, not the schedule's.
const FIELDS: [RegExp, MonitorField][] = [
  [/everySeconds/i, "everySeconds"],
  [/timeZone|time zone/i, "timeZone"],
  [/\bcron\b/i, "cron"],
  [/schedule/i, "schedule"],
  [/webhook/i, "webhooks"],
  [/mail/i, "mail"],
  [/maxDurationMs|duration/i, "maxDuration"],
  [/environment/i, "environment"],
  [/collection/i, "collection"],
  [/\bname\b/i, "name"],
];

/**
 * Which field an API error is about, so the form can show it next to that field: the zod issue's
 * path, `details.path`, or the field named in the message (the API's messages start with it).
 */
export function fieldOfError(error: unknown): { field: MonitorField | null; message: string } | null {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  if (!isApiError(error) || (error.code !== "bad_request" && error.code !== "unprocessable")) return { field: null, message };
  const details = (error.details ?? {}) as { issues?: { path?: (string | number)[] }[]; path?: (string | number)[]; field?: string };
  const where = details.issues?.[0]?.path?.join(".") || details.path?.join(".") || details.field || /^([\w.[\]]+):/.exec(message)?.[1] || message;
  const field = FIELDS.find(([pattern]) => pattern.test(where))?.[1] ?? null;
  return { field, message };
}
