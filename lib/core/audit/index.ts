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

export type SinkKind = "webhook" | "otlp" | "splunk-hec";

/** An audit sink and its delivery state (its secret is never returned: `hasSecret` says whether one is set). */
export interface AuditSinkDto {
  id: string;
  kind: SinkKind;
  url: string;
  include: ("audit" | "calls")[];
  enabled: boolean;
  hasSecret: boolean;
  delivered: number;
  failed: number;
  /** Age in seconds of the oldest event not yet delivered to it (0: none waiting). */
  lagSeconds: number;
  lastError: string | null;
  lastDeliveredAt: string | null;
  nextAttemptAt: string | null;
}

/** GET /api/v1/audit/verify: the workspace's hash chain recomputed. */
export interface AuditVerifyDto {
  ok: boolean;
  checked: number;
  unchained: number;
  anchorSeq: number;
  firstBroken?: { seq: number; id: number | null; reason: "changed" | "missing" | "anchor" };
}

export const auditSinkKeys = {
  all: () => ["audit", "sinks"] as const,
};
