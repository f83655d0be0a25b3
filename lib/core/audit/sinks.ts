import "server-only";
import type { Principal } from "@/lib/core/access";
import { encryptJson } from "@/lib/core/crypto";
import { notFound } from "@/lib/core/errors";
import type { AuditSinkDto, AuditVerifyDto, SinkKind } from "./index";
import type { CreateSink, UpdateSink } from "./schemas";
import { audit } from "./server";
import { forgetCallStreaming } from "./stream-calls";
import { verifyChain } from "./verify";
import * as q from "./queries";

/** What an audit record says of a sink: never its secret, only whether it has one. */
function described(row: q.SinkRow) {
  return { kind: row.kind, url: row.url, include: JSON.parse(row.include) as string[], enabled: row.enabled, hasSecret: row.secret !== null };
}

async function toDto(row: q.SinkRow): Promise<AuditSinkDto> {
  const oldest = await q.oldestAfter({ workspaceId: row.workspaceId, afterSeq: row.deliveredSeq });
  return {
    id: row.id,
    kind: row.kind as SinkKind,
    url: row.url,
    include: JSON.parse(row.include) as AuditSinkDto["include"],
    enabled: row.enabled,
    hasSecret: row.secret !== null,
    delivered: row.delivered,
    failed: row.failed,
    lagSeconds: oldest ? Math.max(0, Math.round((Date.now() - oldest.createdAt.getTime()) / 1000)) : 0,
    lastError: row.lastError,
    lastDeliveredAt: row.lastDeliveredAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
  };
}

async function requireSink(principal: Principal, id: string): Promise<q.SinkRow> {
  const row = await q.findSink({ workspaceId: principal.workspaceId, id });
  if (!row) throw notFound("Audit sink");
  return row;
}

const changed = (principal: Principal) => forgetCallStreaming(principal.workspaceId);

export async function listSinks(principal: Principal): Promise<AuditSinkDto[]> {
  return Promise.all((await q.listSinks({ workspaceId: principal.workspaceId })).map(toDto));
}

export async function getSink(principal: Principal, id: string): Promise<AuditSinkDto> {
  return toDto(await requireSink(principal, id));
}

export async function createSink(principal: Principal, input: CreateSink): Promise<AuditSinkDto> {
  const row = await q.insertSink({
    data: { workspaceId: principal.workspaceId, kind: input.kind, url: input.url, secret: input.secret ? encryptJson(input.secret) : null, include: JSON.stringify([...new Set(input.include)]), enabled: input.enabled },
  });
  await changed(principal);
  await audit(principal, { action: "audit_sink.created", target: { type: "audit_sink", id: row.id, name: row.url }, details: described(row) });
  return toDto(row);
}

/** A URL change keeps the secret unless the body replaces or removes it (`secret: null`); the audit record says which. */
export async function updateSink(principal: Principal, id: string, input: UpdateSink): Promise<AuditSinkDto> {
  const before = await requireSink(principal, id);
  const row = await q.updateSink({
    workspaceId: principal.workspaceId,
    id,
    data: {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.secret !== undefined ? { secret: input.secret === null ? null : encryptJson(input.secret) } : {}),
      ...(input.include !== undefined ? { include: JSON.stringify([...new Set(input.include)]) } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    },
  });
  if (!row) throw notFound("Audit sink");
  await changed(principal);
  const details = { from: described(before), to: described(row), ...(input.secret !== undefined ? { secret: input.secret === null ? "removed" : "replaced" } : {}) };
  await audit(principal, { action: "audit_sink.updated", target: { type: "audit_sink", id, name: row.url }, details });
  return toDto(row);
}

export async function deleteSink(principal: Principal, id: string): Promise<void> {
  const before = await requireSink(principal, id);
  if (!(await q.deleteSink({ workspaceId: principal.workspaceId, id }))) throw notFound("Audit sink");
  await changed(principal);
  await audit(principal, { action: "audit_sink.deleted", target: { type: "audit_sink", id, name: before.url }, details: described(before) });
}

/** GET /api/v1/audit/verify. */
export function verifyAudit(principal: Principal): Promise<AuditVerifyDto> {
  return verifyChain({ workspaceId: principal.workspaceId });
}
