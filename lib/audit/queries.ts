import { prisma } from "@/lib/db/client";

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
