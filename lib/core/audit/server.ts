import "server-only";
import type { ActorType, AuditEntryDto, AuditFilters, AuditPage, ListAuditQuery } from "@/lib/core/audit";
import type { ClientInfo, Principal } from "@/lib/core/access";
import * as q from "./queries";

export interface AuditInput {
  /** Dotted verb: "member.invited", "server.archived", "auth.sign_in_failed", … */
  action: string;
  target?: { type: string; id?: string | null; name?: string | null };
  /** Non-secret details only: header *names*, old and new role, counts. Never values. */
  details?: Record<string, unknown>;
}

/**
 * Appends one audit event for what a principal did. Awaited, so an action and its record
 * land together; a failure to record is logged, never turned into a failed action.
 */
export async function audit(principal: Principal, input: AuditInput): Promise<void> {
  await auditAs(
    { workspaceId: principal.workspaceId, type: principal.via === "token" ? "token" : "user", id: principal.userId, name: principal.userName, client: principal.client },
    input,
  );
}

/** For actors without a Principal: an agent, the console's own jobs, a person signing in. */
export async function auditAs(
  actor: { workspaceId: string | null; type: ActorType; id?: string | null; name?: string | null; client?: ClientInfo },
  input: AuditInput,
): Promise<void> {
  try {
    await q.insertAuditEvents({
      rows: [
        {
          workspaceId: actor.workspaceId,
          actorType: actor.type,
          actorId: actor.id ?? null,
          actorName: actor.name ?? null,
          action: input.action,
          targetType: input.target?.type ?? null,
          targetId: input.target?.id ?? null,
          targetName: input.target?.name ?? null,
          details: input.details ? JSON.stringify(input.details) : null,
          ip: actor.client?.ip ?? null,
          userAgent: actor.client?.userAgent ?? null,
        },
      ],
    });
  } catch (err) {
    console.error("[audit] could not record", input.action, err);
  }
}

/** A page of the workspace's audit log, newest first (keyset cursor on the event id). */
export async function listAudit(principal: Principal, query: ListAuditQuery): Promise<AuditPage> {
  const rows = await q.listAuditEvents({ filter: toFilter(principal.workspaceId, query), cursor: query.cursor, limit: query.limit + 1 });
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  return { items: page.map(toDto), nextCursor: more ? String(page[page.length - 1]!.id) : null };
}

/** The filtered audit log as NDJSON, one event per line, newest first, read page by page. */
export function exportAudit(principal: Principal, filters: AuditFilters): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const filter = toFilter(principal.workspaceId, filters);
  let cursor: number | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const rows = await q.listAuditEvents({ filter, cursor, limit: 500 });
      if (rows.length) controller.enqueue(encoder.encode(rows.map((r) => `${JSON.stringify(toDto(r))}\n`).join("")));
      if (rows.length < 500) return controller.close();
      cursor = rows[rows.length - 1]!.id;
    },
  });
}

function toFilter(workspaceId: string, f: AuditFilters): q.AuditFilter {
  return {
    workspaceId,
    action: f.action,
    actorId: f.actorId,
    targetType: f.targetType,
    targetId: f.targetId,
    since: f.since ? new Date(f.since) : undefined,
    until: f.until ? new Date(f.until) : undefined,
  };
}

function toDto(row: q.AuditEventRow): AuditEntryDto {
  let details: Record<string, unknown> | null = null;
  try {
    details = row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null;
  } catch {
    details = { raw: row.details };
  }
  return {
    id: row.id,
    action: row.action,
    actor: { type: row.actorType as ActorType, id: row.actorId, name: row.actorName },
    target: { type: row.targetType, id: row.targetId, name: row.targetName },
    details,
    ip: row.ip,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
  };
}

export { createSink, deleteSink, getSink, listSinks, updateSink, verifyAudit } from "./sinks";
