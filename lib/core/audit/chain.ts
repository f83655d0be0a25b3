import { createHash } from "node:crypto";
import type { AuditRow } from "./queries";

// Loaded by lib/start's jobs too (verify, retention): nothing here may import "server-only".

/** What a chained audit row's hash covers (in a fixed order: see below): the row, its place and its time. */
export type ChainedContent = Omit<AuditRow, "workspaceId"> & { workspaceId: string; seq: number; createdAt: Date };

/** The hash before a workspace's first row. */
export const GENESIS = "";

/** A JSON array in a fixed field order: the same row always serializes to the same text. */
export function canonical(row: ChainedContent): string {
  return JSON.stringify([
    row.workspaceId,
    row.seq,
    row.actorType,
    row.actorId,
    row.actorName,
    row.action,
    row.targetType,
    row.targetId,
    row.targetName,
    row.details,
    row.ip,
    row.userAgent,
    row.createdAt.toISOString(),
  ]);
}

/** SHA-256 (hex) of the previous row's hash and this row's canonical content. */
export function chainHash(previous: string, row: ChainedContent): string {
  return createHash("sha256").update(previous).update("\n").update(canonical(row)).digest("hex");
}
