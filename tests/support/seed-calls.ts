import crypto from "node:crypto";
import type { TestDatabase } from "./database";

export interface SeedCall {
  workspaceId: string;
  serverId: string;
  startedAt: Date;
  /** null: still pending. */
  durationMs: number | null;
  status?: string;
  name?: string;
  method?: string;
  userId?: string | null;
  userName?: string | null;
  origin?: string;
  /** The console instance waiting for it: a pending call of none (or of a stopped one) is soon marked interrupted. */
  instanceId?: string | null;
}

/**
 * Calls written straight into the call table, as the console records them (ISO text with
 * "+00:00" on SQLite, UTC wall time in PostgreSQL's timestamp(3) whatever the process's zone).
 */
export async function insertCalls(db: TestDatabase, calls: SeedCall[]): Promise<string[]> {
  const stamp = (d: Date) => (db.provider === "sqlite" ? d.toISOString().replace("Z", "+00:00") : d.toISOString());
  const ids = calls.map(() => crypto.randomUUID());
  const statements: [string, ...unknown[]][] = calls.map((c, i) => [
    `INSERT INTO "call" (id, workspace_id, server_id, user_id, user_name, method, name, params, status, request_id, trace_id, origin, started_at, finished_at, duration_ms, instance_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, '{}', ?, ?, 't', ?, ${db.provider === "sqlite" ? "?, ?" : "CAST(? AS timestamp(3)), CAST(? AS timestamp(3))"}, ?, ?)`,
    ids[i],
    c.workspaceId,
    c.serverId,
    c.userId ?? null,
    c.userName ?? null,
    c.method ?? "tools/call",
    c.name ?? "echo",
    c.status ?? (c.durationMs === null ? "pending" : "ok"),
    `seed-${ids[i]}`,
    c.origin ?? "user",
    stamp(c.startedAt),
    c.durationMs === null ? null : stamp(new Date(c.startedAt.getTime() + Math.ceil(c.durationMs))),
    c.durationMs,
    c.instanceId ?? null,
  ]);
  for (let i = 0; i < statements.length; i += 500) await db.batch(statements.slice(i, i + 500));
  return ids;
}

/** PostgreSQL's percentile_cont: linear interpolation between the values ranked around p·(n−1). */
export function percentileCont(values: number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = p * (sorted.length - 1);
  const lo = Math.floor(pos);
  const f = pos - lo;
  return f === 0 ? sorted[lo]! : sorted[lo]! + f * (sorted[lo + 1]! - sorted[lo]!);
}
