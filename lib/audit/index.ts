import { z } from "zod";

/** Who did it: a person (session or token), an agent, the console itself, or nobody signed in. */
export type ActorType = "user" | "token" | "agent" | "system" | "anonymous";

export interface AuditEntryDto {
  id: number;
  action: string;
  actor: { type: ActorType; id: string | null; name: string | null };
  target: { type: string | null; id: string | null; name: string | null };
  details: Record<string, unknown> | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
}

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

/** One page of the audit log, newest first; pass `nextCursor` back as `cursor` for the next one. */
export interface AuditPage {
  items: AuditEntryDto[];
  nextCursor: string | null;
}

/** The filters of the list and the export (the query without cursor and limit). */
export type AuditFilters = Omit<ListAuditQuery, "cursor" | "limit">;

export const auditKeys = {
  all: () => ["audit"] as const,
  list: (filters: Partial<AuditFilters>) => ["audit", filters] as const,
};
