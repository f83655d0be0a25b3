import { prisma, sql } from "@/lib/core/db/client";
import { GRAINS } from "./cover";
import { decodeBins, emptySummary, encodeBins, mergeSummary, type Summary } from "./histogram";
import type { PendingCall } from "./queries";
import { calls, durationBin, epochSeconds, instant, num, postgres, rollupColumns, serversWhere, summaryColumns, summaryOf, type Num, type SummaryRow } from "./sql";

// Loaded by lib/start's graph for the retention job (outside Next): no "server-only" here.

type Tx = Parameters<Parameters<typeof prisma.$transaction>[0]>[0];

/** An hour is rolled up once it ended this long ago: instances' clocks stamping calls differ a little. */
const CLOSE_AFTER_MS = 2 * 60_000;
/** Hours rolled up per transaction, so a first catch-up over months never holds SQLite's write lock for long. */
const CHUNK_HOURS = 6;
const TX = { maxWait: 10_000, timeout: 60_000 };

const minuteOf = (ms: number) => Math.floor(ms / 60_000);
const hourFloor = (minute: number) => Math.floor(minute / 60) * 60;
/** The grains built from hour rows rather than from calls. */
const COARSE = [GRAINS.sixHours, GRAINS.day];
const atMinute = (minute: number) => new Date(minute * 60_000);

class Busy extends Error {}

/**
 * Takes the workspace's rollup lock for the transaction. On PostgreSQL another instance may hold
 * it: `wait` false gives up at once (that instance is doing the same work) by throwing Busy.
 */
async function lock(tx: Tx, workspaceId: string, wait: boolean): Promise<void> {
  if (!postgres) return; // SQLite: one writer, and the transaction re-reads the state below
  const key = `call_rollup:${workspaceId}`;
  if (wait) await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))::text AS ok`;
  else {
    const [row] = await tx.$queryRaw<{ ok: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtext(${key})) AS ok`;
    if (!row?.ok) throw new Busy();
  }
}

async function throughOf(db: Tx | typeof prisma, workspaceId: string): Promise<number | null> {
  const row = await db.callRollupState.findUnique({ where: { workspaceId }, select: { throughMinute: true } });
  return row?.throughMinute ?? null;
}

/**
 * Recomputes every rollup row of the workspace's hours in [fromMinute, toMinute) from its calls.
 * Calls still pending are left out and listed in call_rollup_pending, so that they are counted
 * live and their hour is rebuilt once they end.
 */
async function rebuild(tx: Tx, workspaceId: string, fromMinute: number, toMinute: number): Promise<void> {
  const [from, to] = [instant(atMinute(fromMinute)), instant(atMinute(toMinute))];
  // Coarser rows are rebuilt from the hours by rollCoarse.
  await tx.$executeRaw`DELETE FROM call_rollup WHERE workspace_id = ${workspaceId} AND grain IN (15, 60) AND start_minute >= ${fromMinute} AND start_minute < ${toMinute}`;
  await tx.$executeRaw`DELETE FROM call_rollup_pending WHERE workspace_id = ${workspaceId} AND started_at >= ${from} AND started_at < ${to}`;
  const serverIds = (await tx.server.findMany({ where: { workspaceId }, select: { id: true } })).map((s) => s.id);
  const range = sql.sql`${serversWhere(workspaceId, serverIds)} AND started_at >= ${from} AND started_at < ${to}`;
  await tx.$executeRaw`
    INSERT INTO call_rollup_pending (call_id, workspace_id, started_at)
    SELECT id, workspace_id, started_at FROM ${calls} WHERE ${range} AND status = 'pending'`;
  // On PostgreSQL each statement sees the calls as they are when it starts: one that ended since
  // the statement above stays listed as pending (and out of the sums) until its hour is rebuilt.
  const settled = postgres
    ? sql.sql`${range} AND status <> 'pending' AND id NOT IN (SELECT call_id FROM call_rollup_pending WHERE workspace_id = ${workspaceId} AND started_at >= ${from} AND started_at < ${to})`
    : sql.sql`${range} AND status <> 'pending'`;
  const hour = sql.sql`(${epochSeconds} / 3600) * 60`;
  // PostgreSQL refuses a constant in GROUP BY: the keys a group lacks are selected, not grouped.
  const groups = [
    [sql.sql`'tool', method, name`, sql.sql`method, name`],
    [sql.sql`'user', coalesce(user_id, ''), ''`, sql.sql`coalesce(user_id, '')`],
    [sql.sql`'origin', origin, ''`, sql.sql`origin`],
    // By status: what the dashboard counts beside the failures (calls the workspace's rules denied).
    [sql.sql`'status', status, ''`, sql.sql`status`],
  ] as const;
  for (const [keys, groupBy] of groups) {
    await tx.$executeRaw`
      INSERT INTO call_rollup (workspace_id, server_id, grain, start_minute, kind, key, name, count, errors, timeouts, interrupted, timed, duration_sum, duration_min, duration_max, histogram)
      SELECT workspace_id, server_id, 60, ${hour}, ${keys}, ${summaryColumns}, ''
      FROM ${calls} WHERE ${settled} GROUP BY workspace_id, server_id, ${hour}, ${groupBy}`;
  }
  await tx.$executeRaw`
    INSERT INTO call_rollup (workspace_id, server_id, grain, start_minute, kind, key, name, count, errors, timeouts, interrupted, timed, duration_sum, duration_min, duration_max, histogram)
    SELECT workspace_id, '', grain, start_minute, kind, key, name, sum(count), sum(errors), sum(timeouts), sum(interrupted), sum(timed), sum(duration_sum), min(duration_min), max(duration_max), ''
    FROM call_rollup WHERE workspace_id = ${workspaceId} AND server_id <> '' AND grain = 60 AND start_minute >= ${fromMinute} AND start_minute < ${toMinute}
    GROUP BY workspace_id, grain, start_minute, kind, key, name`;
  // Totals carry a duration histogram, merged here: per quarter hour and hour, per server and for all.
  const quarter = sql.sql`(${epochSeconds} / 900) * 15`;
  const rows = await tx.$queryRaw<(SummaryRow & { server_id: string; q: Num; bin: Num })[]>`
    SELECT server_id, ${quarter} AS q, ${durationBin} AS bin, ${summaryColumns}
    FROM ${calls} WHERE ${settled} GROUP BY server_id, ${quarter}, ${durationBin}`;
  const totals = new Map<string, Totals>();
  for (const r of rows) {
    const part = summaryOf(r);
    if (r.bin !== null) part.bins.set(num(r.bin), part.timed);
    const start = num(r.q);
    for (const [serverId, grain, at] of [[r.server_id, 15, start], [r.server_id, 60, hourFloor(start)], ["", 15, start], ["", 60, hourFloor(start)]] as const) {
      const id = `${serverId}|${grain}|${at}`;
      const entry = totals.get(id) ?? { serverId, grain, start: at, summary: emptySummary() };
      mergeSummary(entry.summary, part);
      totals.set(id, entry);
    }
  }
  await insertTotals(tx, workspaceId, [...totals.values()]);
}

/**
 * Recomputes the rows of the coarse periods (6 hours, days) that meet [fromMinute, toMinute) and
 * are wholly rolled up (ending at or before `through`) from their hour rows, so they always agree.
 */
async function rollCoarse(tx: Tx, workspaceId: string, fromMinute: number, toMinute: number, through: number): Promise<void> {
  for (const grain of COARSE) {
    const floor = (minute: number) => Math.floor(minute / grain) * grain;
    const from = floor(fromMinute);
    const to = Math.min(floor(through), floor(toMinute - 1) + grain);
    if (from >= to) continue;
    const start = sql.sql`(start_minute / ${sql.raw(String(grain))}) * ${sql.raw(String(grain))}`;
    await tx.$executeRaw`DELETE FROM call_rollup WHERE workspace_id = ${workspaceId} AND grain = ${grain} AND start_minute >= ${from} AND start_minute < ${to}`;
    await tx.$executeRaw`
      INSERT INTO call_rollup (workspace_id, server_id, grain, start_minute, kind, key, name, count, errors, timeouts, interrupted, timed, duration_sum, duration_min, duration_max, histogram)
      SELECT workspace_id, server_id, ${grain}, ${start}, kind, key, name, sum(count), sum(errors), sum(timeouts), sum(interrupted), sum(timed), sum(duration_sum), min(duration_min), max(duration_max), ''
      FROM call_rollup WHERE workspace_id = ${workspaceId} AND grain = 60 AND kind <> 'total' AND start_minute >= ${from} AND start_minute < ${to}
      GROUP BY workspace_id, server_id, ${start}, kind, key, name`;
    // Totals carry histograms, merged here.
    const hours = await tx.$queryRaw<(SummaryRow & { server_id: string; start_minute: Num; histogram: string })[]>`
      SELECT server_id, start_minute, ${rollupColumns}, histogram
      FROM call_rollup WHERE workspace_id = ${workspaceId} AND grain = 60 AND kind = 'total' AND start_minute >= ${from} AND start_minute < ${to}`;
    const totals = new Map<string, Totals>();
    for (const r of hours) {
      const at = floor(num(r.start_minute));
      const id = `${r.server_id}|${at}`;
      const entry = totals.get(id) ?? totals.set(id, { serverId: r.server_id, grain, start: at, summary: emptySummary() }).get(id)!;
      const part = summaryOf(r);
      decodeBins(r.histogram, part.bins);
      mergeSummary(entry.summary, part);
    }
    await insertTotals(tx, workspaceId, [...totals.values()]);
  }
}

type Totals = { serverId: string; grain: number; start: number; summary: Summary };

async function insertTotals(tx: Tx, workspaceId: string, totals: Totals[]): Promise<void> {
  const data = totals.map(({ serverId, grain, start, summary: s }) => ({
    workspaceId, serverId, grain, startMinute: start, kind: "total", key: "", name: "",
    count: s.count, errors: s.errors, timeouts: s.timeouts, interrupted: s.interrupted, timed: s.timed, durationSum: s.sum, durationMin: s.min, durationMax: s.max, histogram: encodeBins(s.bins),
  }));
  for (let i = 0; i < data.length; i += 1000) await tx.callRollup.createMany({ data: data.slice(i, i + 1000) });
}

/**
 * How far the workspace is rolled up, and the calls listed as pending when their hour was rolled
 * up with whether each has ended (or is gone) since: one statement, as every request reads them.
 */
async function rollupState(workspaceId: string): Promise<{ through: number | null; pending: (PendingCall & { ended: boolean })[] }> {
  const rows = await prisma.$queryRaw<{ through_minute: Num; call_id: string | null; started_at: Date | string | null; ended: Num }[]>`
    SELECT s.through_minute, p.call_id, p.started_at, CASE WHEN c.id IS NULL OR c.status <> 'pending' THEN 1 ELSE 0 END AS ended
    FROM call_rollup_state s LEFT JOIN call_rollup_pending p ON p.workspace_id = s.workspace_id LEFT JOIN "call" c ON c.id = p.call_id
    WHERE s.workspace_id = ${workspaceId}`;
  return {
    through: rows.length ? num(rows[0]!.through_minute) : null,
    pending: rows.flatMap((r) => (r.call_id === null ? [] : [{ id: r.call_id, startedAt: new Date(r.started_at!).getTime(), ended: num(r.ended) === 1 }])),
  };
}

/**
 * Brings the workspace's rollups up to date: every closed hour rolled up (a first run starts at
 * its oldest call), and the hours of calls that ended after their hour was rolled up rebuilt.
 * Returns the minute up to which rollups hold (on PostgreSQL, while another instance is at it,
 * whatever it has reached: the rest is counted live) and the calls to count live within it.
 */
export async function advanceRollups({ workspaceId, now = new Date() }: { workspaceId: string; now?: Date }): Promise<{ through: number | null; pending: PendingCall[] }> {
  const closed = hourFloor(minuteOf(now.getTime() - CLOSE_AFTER_MS));
  const { through, pending } = await rollupState(workspaceId);
  const settle = [...new Set(pending.filter((p) => p.ended).map((p) => hourFloor(minuteOf(p.startedAt))))];
  if (through !== null && through >= closed && !settle.length) return { through, pending };
  try {
    if (through === null) {
      const first = await prisma.call.findFirst({ where: { workspaceId }, orderBy: { startedAt: "asc" }, select: { startedAt: true } });
      const start = first ? Math.min(closed, hourFloor(minuteOf(first.startedAt.getTime()))) : closed;
      await prisma.$executeRaw`INSERT INTO call_rollup_state (workspace_id, through_minute) VALUES (${workspaceId}, ${start}) ON CONFLICT DO NOTHING`;
    }
    if (settle.length) {
      await prisma.$transaction(async (tx) => {
        await lock(tx, workspaceId, false);
        const rolled = (await throughOf(tx, workspaceId)) ?? 0;
        for (const hour of settle) {
          if (hour >= rolled) continue;
          await rebuild(tx, workspaceId, hour, hour + 60);
          await rollCoarse(tx, workspaceId, hour, hour + 60, rolled);
        }
      }, TX);
    }
    for (;;) {
      const done = await prisma.$transaction(async (tx) => {
        await lock(tx, workspaceId, false);
        const from = await throughOf(tx, workspaceId);
        if (from === null || from >= closed) return true;
        const to = Math.min(closed, from + CHUNK_HOURS * 60);
        await rebuild(tx, workspaceId, from, to);
        await rollCoarse(tx, workspaceId, from, to, to);
        await tx.callRollupState.update({ where: { workspaceId }, data: { throughMinute: to } });
        return false;
      }, TX);
      if (done) break;
    }
  } catch (err) {
    if (!(err instanceof Busy)) throw err;
  }
  const after = await rollupState(workspaceId);
  return { through: after.through, pending: after.pending.map(({ id, startedAt }) => ({ id, startedAt })) };
}

/** After a retention purge of the calls started before `before`: their hours' rollups go, the hour it cut is rebuilt. */
export async function forgetRollupsBefore({ workspaceId, before }: { workspaceId: string; before: Date }): Promise<void> {
  const hour = hourFloor(minuteOf(before.getTime()));
  await prisma.$transaction(async (tx) => {
    await lock(tx, workspaceId, true);
    const through = await throughOf(tx, workspaceId);
    if (through === null) return;
    // Calls still pending were not purged: they stay listed, counted live until they end.
    await tx.$executeRaw`DELETE FROM call_rollup WHERE workspace_id = ${workspaceId} AND start_minute < ${hour}`;
    if (hour < through) {
      await rebuild(tx, workspaceId, hour, hour + 60);
      await rollCoarse(tx, workspaceId, hour, hour + 60, through);
    }
  }, TX);
}

/** After a server's calls were deleted: the workspace's rollups start afresh (rebuilt on the next dashboard request). */
export async function forgetRollups({ workspaceId }: { workspaceId: string }): Promise<void> {
  await prisma.$transaction(async (tx) => {
    await lock(tx, workspaceId, true);
    await tx.callRollup.deleteMany({ where: { workspaceId } });
    await tx.callRollupPending.deleteMany({ where: { workspaceId } });
    await tx.callRollupState.deleteMany({ where: { workspaceId } });
  }, TX);
}
