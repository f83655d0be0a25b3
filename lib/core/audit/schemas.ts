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
