import { prisma } from "@/lib/core/db/client";
import type { Prisma } from "@prisma/client";

export interface AuditRow {
  workspaceId: string | null;
  actorType: string;
  actorId: string | null;
  actorName: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  targetName: string | null;
  details: string | null;
  ip: string | null;
  userAgent: string | null;
}

export function insertAuditEvents({ rows }: { rows: AuditRow[] }) {
  return prisma.auditEvent.createMany({ data: rows });
}

export interface AuditFilter {
  workspaceId: string;
  /** Exact action, or a prefix when it ends with "." */
  action?: string;
  actorId?: string;
  targetType?: string;
  targetId?: string;
  since?: Date;
  until?: Date;
}

/** Newest first, keyset on the autoincrement id: `cursor` is the last id of the previous page. */
export function listAuditEvents({ filter, cursor, limit }: { filter: AuditFilter; cursor?: number; limit: number }) {
  const { workspaceId, action, actorId, targetType, targetId, since, until } = filter;
  const where: Prisma.AuditEventWhereInput = {
    workspaceId,
    ...(action ? { action: action.endsWith(".") ? { startsWith: action } : action } : {}),
    ...(actorId ? { actorId } : {}),
    ...(targetType ? { targetType } : {}),
    ...(targetId ? { targetId } : {}),
    ...(since || until ? { createdAt: { ...(since ? { gte: since } : {}), ...(until ? { lte: until } : {}) } } : {}),
    ...(cursor ? { id: { lt: cursor } } : {}),
  };
  return prisma.auditEvent.findMany({ where, orderBy: { id: "desc" }, take: limit });
}

export type AuditEventRow = Awaited<ReturnType<typeof listAuditEvents>>[number];
