import { z } from "zod";

export const ListAuditQuerySchema = z.object({
  /** Exact action ("member.removed") or a prefix ending in "." ("member."). */
  action: z.string().max(100).optional(),
  actorId: z.string().max(100).optional(),
  targetType: z.string().max(50).optional(),
  targetId: z.string().max(100).optional(),
  since: z.iso.datetime().optional(),
  until: z.iso.datetime().optional(),
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ListAuditQuery = z.infer<typeof ListAuditQuerySchema>;

const SinkUrlSchema = z.url({ protocol: /^https?$/ }).max(2000);
const IncludeSchema = z.array(z.enum(["audit", "calls"])).min(1).max(2);

/** POST /api/v1/audit/sinks – where the workspace's audit events (and call summaries) stream. */
export const CreateSinkSchema = z.object({
  kind: z.enum(["webhook", "otlp", "splunk-hec"]),
  url: SinkUrlSchema,
  /** Webhook: the HMAC-SHA256 signing key; Splunk HEC: the token; OTLP: a bearer token. Write-only. */
  secret: z.string().min(1).max(1000).nullable().optional(),
  include: IncludeSchema.default(["audit"]),
  enabled: z.boolean().default(true),
});
export type CreateSink = z.infer<typeof CreateSinkSchema>;

/** PATCH /api/v1/audit/sinks/:id – any subset; `secret: null` removes it, left out keeps it. */
export const UpdateSinkSchema = z.object({
  url: SinkUrlSchema.optional(),
  secret: z.string().min(1).max(1000).nullable().optional(),
  include: IncludeSchema.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateSink = z.infer<typeof UpdateSinkSchema>;
