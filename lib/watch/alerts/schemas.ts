import { z } from "zod";

export const ListAlertsQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });

/** Where an alert goes: mail addresses and http(s) webhooks (each list given replaces the stored one, omitted keeps it). */
export const AlertTargetsSchema = z.object({
  mail: z.array(z.email("Not a mail address").max(320)).max(20).optional(),
  webhooks: z
    .array(
      z
        .string()
        .trim()
        .max(2000)
        .refine((u) => URL.canParse(u) && ["http:", "https:"].includes(new URL(u).protocol), "A webhook is an http(s) URL"),
    )
    .max(20)
    .optional(),
});

/** `POST /api/v1/alerts/read`: mark the alerts read up to one (the newest listed), or all of them. */
export const MarkAlertsReadSchema = z.object({ upTo: z.string().trim().min(1).max(100).optional() }).strict();
