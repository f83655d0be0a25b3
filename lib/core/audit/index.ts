import type { ListAuditQuery } from "./schemas";
export type { ListAuditQuery } from "./schemas";

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
