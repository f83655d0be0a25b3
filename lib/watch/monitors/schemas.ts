import { z } from "zod";
import { AlertTargetsSchema } from "@/lib/watch/alerts/schemas";
import { MAX_EVERY_SECONDS, MIN_EVERY_SECONDS, type MonitorSchedule } from "./index";

/** {everySeconds} or {cron, timeZone}; the cron pattern and zone are checked by the service (422 naming the field). */
export const ScheduleSchema = z
  .object({
    everySeconds: z
      .number()
      .int("everySeconds is a whole number of seconds")
      .min(MIN_EVERY_SECONDS, `A monitor runs at most every ${MIN_EVERY_SECONDS} seconds`)
      .max(MAX_EVERY_SECONDS, "A monitor runs at least once a week")
      .optional(),
    cron: z.string().trim().min(1, "cron is required").max(200).optional(),
    timeZone: z.string().trim().min(1).max(100).optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    if ((s.everySeconds === undefined) === (s.cron === undefined)) ctx.addIssue({ code: "custom", path: [], message: "schedule is {everySeconds} or {cron, timeZone}" });
    else if (s.everySeconds !== undefined && s.timeZone !== undefined) ctx.addIssue({ code: "custom", path: ["timeZone"], message: "timeZone goes with cron" });
  })
  .transform((s): MonitorSchedule => (s.everySeconds !== undefined ? { everySeconds: s.everySeconds } : { cron: s.cron!, timeZone: s.timeZone ?? "UTC" }));

const Alerts = AlertTargetsSchema.extend({
  maxDurationMs: z.number().int().min(1).max(86_400_000).nullish(),
});

/** POST /api/v1/monitors */
export const CreateMonitorSchema = z.object({
  collectionId: z.string().trim().min(1, "collectionId is required").max(200),
  name: z.string().trim().min(1).max(200).optional(),
  environment: z.string().trim().min(1).max(200).nullish(),
  schedule: ScheduleSchema,
  alerts: Alerts.default({}),
  enabled: z.boolean().default(true),
});
export type CreateMonitor = z.infer<typeof CreateMonitorSchema>;

/** PATCH /api/v1/monitors/:id: each field given replaces the stored one (webhooks too: omitted keeps them). */
export const UpdateMonitorSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  environment: z.string().trim().min(1).max(200).nullish(),
  schedule: ScheduleSchema.optional(),
  alerts: Alerts.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateMonitor = z.infer<typeof UpdateMonitorSchema>;

export const ListQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) });
export const UptimeQuerySchema = z.object({ hours: z.coerce.number().int().min(1).max(24 * 90).default(24) });
