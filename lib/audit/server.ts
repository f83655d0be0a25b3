import "server-only";
import type { ActorType } from "@/lib/audit";
import type { ClientInfo, Principal } from "@/lib/auth";
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
