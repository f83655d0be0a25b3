import { prisma } from "@/lib/core/db/client";
import type { Prisma } from "@prisma/client";
import { chainHash, GENESIS } from "./chain";

// The one writer of audit_event, audit_outbox, audit_sink and workspace_sequence. Loaded by lib/start's jobs too.

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

type Tx = Prisma.TransactionClient;

/**
 * Adds `n` to a per-workspace sequence and returns its new value. The first statement of its
 * transaction: it takes SQLite's write lock, and on PostgreSQL the row's lock until the commit, so
 * the numbers it hands out commit in order.
 */
async function bump(tx: Tx, workspaceId: string, name: string, n: number): Promise<number> {
  const rows = await tx.$queryRaw<{ value: number | bigint }[]>`INSERT INTO workspace_sequence (workspace_id, name, value) VALUES (${workspaceId}, ${name}, ${n})
    ON CONFLICT (workspace_id, name) DO UPDATE SET value = workspace_sequence.value + ${n} RETURNING value`;
  return Number(rows[0]!.value);
}

/** The current value of a workspace's sequences (0 when never used). */
export async function sequences({ workspaceId }: { workspaceId: string }): Promise<Record<string, number>> {
  const rows = await prisma.workspaceSequence.findMany({ where: { workspaceId } });
  return Object.fromEntries(rows.map((r) => [r.name, r.value]));
}

/** Events as sinks receive them, appended after the sequence's lock (in the caller's transaction). */
async function appendOutbox(tx: Tx, workspaceId: string, type: string, payloads: ((seq: number) => Record<string, unknown>)[]): Promise<void> {
  const sinks = await tx.auditSink.findMany({ where: { workspaceId, enabled: true }, select: { include: true } });
  if (!sinks.some((s) => (JSON.parse(s.include) as string[]).includes(type === "call" ? "calls" : "audit"))) return;
  const last = await bump(tx, workspaceId, "outbox", payloads.length);
  const first = last - payloads.length + 1;
  await tx.auditOutbox.createMany({
    data: payloads.map((make, i) => ({ workspaceId, seq: first + i, type, payload: JSON.stringify({ id: `${workspaceId}:${first + i}`, workspaceId, seq: first + i, ...make(first + i) }) })),
  });
}

/**
 * Writes audit rows: a workspace's get the next numbers of its chain, each hashed with the one
 * before, and go to its outbox in the same transaction when a sink streams audit events.
 */
export async function insertAuditEvents({ rows }: { rows: AuditRow[] }): Promise<void> {
  const loose = rows.filter((r) => !r.workspaceId);
  if (loose.length) await prisma.auditEvent.createMany({ data: loose });
  const byWorkspace = new Map<string, AuditRow[]>();
  for (const row of rows) if (row.workspaceId) byWorkspace.set(row.workspaceId, [...(byWorkspace.get(row.workspaceId) ?? []), row]);
  // In one order, so two writers never wait on each other's workspaces crosswise.
  for (const workspaceId of [...byWorkspace.keys()].sort()) {
    await prisma.$transaction((tx) => chainInto(tx, workspaceId, byWorkspace.get(workspaceId)!));
  }
}

async function chainInto(tx: Tx, workspaceId: string, rows: AuditRow[]): Promise<void> {
  const last = await bump(tx, workspaceId, "audit", rows.length);
  const first = last - rows.length + 1;
  const before = await tx.auditEvent.findFirst({ where: { workspaceId, seq: { lt: first } }, orderBy: { seq: "desc" }, select: { hash: true } });
  let hash = before?.hash ?? GENESIS;
  const createdAt = new Date();
  const data = rows.map((row, i) => {
    const content = { ...row, workspaceId, seq: first + i, createdAt };
    hash = chainHash(hash, content);
    return { ...content, hash };
  });
  await tx.auditEvent.createMany({ data });
  await appendOutbox(
    tx,
    workspaceId,
    "audit",
    data.map((r) => () => ({
      at: createdAt.toISOString(),
      type: "audit",
      action: r.action,
      actor: { type: r.actorType, id: r.actorId, name: r.actorName },
      target: { type: r.targetType, id: r.targetId, name: r.targetName },
      details: r.details ? (JSON.parse(r.details) as unknown) : null,
      ip: r.ip,
      userAgent: r.userAgent,
      auditSeq: r.seq,
      hash: r.hash,
    })),
  );
}

/** Call summaries for the workspace's sinks that stream calls (none written when no sink does). */
export function appendCallSummaries({ workspaceId, summaries }: { workspaceId: string; summaries: Record<string, unknown>[] }): Promise<void> {
  return prisma.$transaction((tx) => appendOutbox(tx, workspaceId, "call", summaries.map((s) => () => ({ type: "call", ...s }))));
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

/** Chained rows after `afterSeq`, in chain order. */
export function chainedRows({ workspaceId, afterSeq, limit }: { workspaceId: string; afterSeq: number; limit: number }) {
  return prisma.auditEvent.findMany({ where: { workspaceId, seq: { gt: afterSeq } }, orderBy: { seq: "asc" }, take: limit });
}

export function countUnchained({ workspaceId }: { workspaceId: string }) {
  return prisma.auditEvent.count({ where: { workspaceId, seq: null } });
}

/** The newest purge record: its details hold the hash of the last purged row (the chain's anchor). */
export function purgeRecords({ workspaceId }: { workspaceId: string }) {
  return prisma.auditEvent.findMany({ where: { workspaceId, action: "audit.purged", seq: { not: null } }, orderBy: { seq: "desc" }, take: 20, select: { details: true } });
}

export function listWorkspacesWithAuditRetention() {
  return prisma.workspace.findMany({ where: { auditRetentionDays: { gt: 0 }, legalHold: false }, select: { id: true, auditRetentionDays: true } });
}

/**
 * Deletes audit rows created before `cutoff` (never the chain's newest row, which the next row
 * hashes on) and, in the same transaction, records the purge as a chained row whose details hold
 * the last deleted row's seq and hash: the anchor verify starts from ("audit-anchor" sequence).
 */
export async function purgeAuditRows({ workspaceId, cutoff, retentionDays }: { workspaceId: string; cutoff: Date; retentionDays: number }): Promise<number> {
  return prisma.$transaction(async (tx) => {
    const head = await bump(tx, workspaceId, "audit", 0);
    // Re-checked under the lock: a legal hold set meanwhile wins.
    const ws = await tx.workspace.findUnique({ where: { id: workspaceId }, select: { legalHold: true } });
    if (!ws || ws.legalHold) return 0;
    const last = await tx.auditEvent.findFirst({ where: { workspaceId, seq: { not: null, lt: head }, createdAt: { lt: cutoff } }, orderBy: { seq: "desc" }, select: { seq: true, hash: true } });
    const unchained = (await tx.auditEvent.deleteMany({ where: { workspaceId, seq: null, createdAt: { lt: cutoff } } })).count;
    const chained = last?.seq && last.hash ? (await tx.auditEvent.deleteMany({ where: { workspaceId, seq: { lte: last.seq } } })).count : 0;
    if (!chained && !unchained) return 0;
    const anchor = last?.seq && last.hash && chained ? { seq: last.seq, hash: last.hash } : null;
    if (anchor) await tx.workspaceSequence.upsert({ where: { workspaceId_name: { workspaceId, name: "audit-anchor" } }, create: { workspaceId, name: "audit-anchor", value: anchor.seq }, update: { value: anchor.seq } });
    const details = JSON.stringify({ retentionDays, cutoff: cutoff.toISOString(), deleted: chained + unchained, ...(anchor ? { anchor } : {}) });
    await chainInto(tx, workspaceId, [{ workspaceId, actorType: "system", actorId: null, actorName: "retention", action: "audit.purged", targetType: "workspace", targetId: workspaceId, targetName: null, details, ip: null, userAgent: null }]);
    return chained + unchained;
  });
}

// Sinks and their outbox.

export type SinkRow = NonNullable<Awaited<ReturnType<typeof findSink>>>;

export function listSinks({ workspaceId }: { workspaceId: string }) {
  return prisma.auditSink.findMany({ where: { workspaceId }, orderBy: { createdAt: "asc" } });
}

export function findSink({ workspaceId, id }: { workspaceId?: string; id: string }) {
  return prisma.auditSink.findFirst({ where: { id, ...(workspaceId ? { workspaceId } : {}) } });
}

/** A new sink starts after what the outbox holds now: it receives what happens from here on. */
export function insertSink({ data }: { data: { workspaceId: string; kind: string; url: string; secret: string | null; include: string; enabled: boolean } }) {
  return prisma.$transaction(async (tx) => {
    const deliveredSeq = await bump(tx, data.workspaceId, "outbox", 0);
    return tx.auditSink.create({ data: { ...data, deliveredSeq } });
  });
}

/** Re-enabling a sink skips what happened while it was off (the outbox kept none of it for it). */
export function updateSink({ workspaceId, id, data }: { workspaceId: string; id: string; data: { url?: string; secret?: string | null; include?: string; enabled?: boolean } }) {
  return prisma.$transaction(async (tx) => {
    const head = await bump(tx, workspaceId, "outbox", 0);
    const before = await tx.auditSink.findFirst({ where: { id, workspaceId } });
    if (!before) return null;
    const resume = data.enabled === true && !before.enabled ? { deliveredSeq: Math.max(before.deliveredSeq, head), attempts: 0, nextAttemptAt: null } : {};
    return tx.auditSink.update({ where: { id }, data: { ...data, ...resume } });
  });
}

export async function deleteSink({ workspaceId, id }: { workspaceId: string; id: string }): Promise<boolean> {
  return (await prisma.auditSink.deleteMany({ where: { id, workspaceId } })).count === 1;
}

export function enabledSinks() {
  return prisma.auditSink.findMany({ where: { enabled: true } });
}

export function sinksStreamingCalls({ workspaceId }: { workspaceId: string }) {
  return prisma.auditSink.count({ where: { workspaceId, enabled: true, include: { contains: "calls" } } });
}

export function outboxAfter({ workspaceId, afterSeq, limit }: { workspaceId: string; afterSeq: number; limit: number }) {
  return prisma.auditOutbox.findMany({ where: { workspaceId, seq: { gt: afterSeq } }, orderBy: { seq: "asc" }, take: limit });
}

export function oldestAfter({ workspaceId, afterSeq }: { workspaceId: string; afterSeq: number }) {
  return prisma.auditOutbox.findFirst({ where: { workspaceId, seq: { gt: afterSeq } }, orderBy: { seq: "asc" }, select: { createdAt: true } });
}

/** Moves a sink's cursor from `from` to `to` after a delivery (compare-and-set): false when another instance moved it first. */
export async function advanceSink({ id, from, to, sent }: { id: string; from: number; to: number; sent: number }): Promise<boolean> {
  const now = new Date();
  const { count } = await prisma.auditSink.updateMany({
    where: { id, deliveredSeq: from },
    data: { deliveredSeq: to, delivered: { increment: sent }, attempts: 0, lastError: null, lastAttemptAt: now, lastDeliveredAt: sent ? now : undefined, nextAttemptAt: null },
  });
  return count === 1;
}

export function recordSinkFailure({ id, error, nextAttemptAt }: { id: string; error: string; nextAttemptAt: Date }) {
  return prisma.auditSink.updateMany({ where: { id }, data: { failed: { increment: 1 }, attempts: { increment: 1 }, lastError: error.slice(0, 500), lastAttemptAt: new Date(), nextAttemptAt } });
}

/** Deletes outbox rows every enabled sink of the workspace has (all of them when none is left). */
export async function pruneOutbox({ workspaceId }: { workspaceId: string }): Promise<number> {
  const sinks = await prisma.auditSink.findMany({ where: { workspaceId, enabled: true }, select: { deliveredSeq: true } });
  const upTo = sinks.length ? Math.min(...sinks.map((s) => s.deliveredSeq)) : Number.MAX_SAFE_INTEGER;
  return (await prisma.auditOutbox.deleteMany({ where: { workspaceId, seq: { lte: upTo } } })).count;
}

/** Workspaces whose outbox holds rows (pruned even when their last sink went). */
export async function outboxWorkspaces(): Promise<string[]> {
  const rows = await prisma.auditOutbox.groupBy({ by: ["workspaceId"] });
  return rows.map((r) => r.workspaceId);
}

/** A live claim of the sink's delivery at an earlier due time (another instance is still sending). */
export function earlierLiveClaim({ job, key, dueAt }: { job: string; key: string; dueAt: Date }) {
  return prisma.jobClaim.findFirst({ where: { job, key, dueAt: { lt: dueAt }, finishedAt: null, leaseUntil: { gt: new Date() } }, select: { instanceId: true } });
}
