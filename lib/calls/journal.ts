import "server-only";
import type BetterSqlite3 from "better-sqlite3";
import { outsideTransaction, placeholders, postgresValue, sqliteValue } from "@/lib/db/bulk";
import { driver, type Driver } from "@/lib/db/client";
import { piece } from "@/lib/runtime";

/** A call as written before its request leaves. */
export interface PendingCall {
  id: string;
  workspaceId: string;
  serverId: string;
  sessionId: string | null;
  userId: string | null;
  userName: string | null;
  method: string;
  name: string;
  params: string;
  paramsSecret: string | null;
  requestId: string;
  traceId: string;
  rerunOfId: string | null;
  origin: string;
  parentCallId: string | null;
  credentialMode: string | null;
  credentialUserId: string | null;
  credentialUserName: string | null;
  startedAt: Date;
  requestSize: number;
  instanceId: string;
  sentInvalid: boolean;
  client: string | null;
}

/** What a finished call adds to its row. */
export interface CallCompletion {
  status: string;
  isError: boolean;
  result: string | null;
  error: string | null;
  finishedAt: Date;
  durationMs: number;
  resultSize: number | null;
}

const PENDING_COLUMNS = [
  ["id", "id"], ["workspace_id", "workspaceId"], ["server_id", "serverId"], ["session_id", "sessionId"], ["user_id", "userId"],
  ["user_name", "userName"], ["method", "method"], ["name", "name"], ["params", "params"], ["params_secret", "paramsSecret"],
  ["request_id", "requestId"], ["trace_id", "traceId"], ["rerun_of_id", "rerunOfId"], ["origin", "origin"], ["parent_call_id", "parentCallId"],
  ["credential_mode", "credentialMode"], ["credential_user_id", "credentialUserId"], ["credential_user_name", "credentialUserName"],
  ["started_at", "startedAt"], ["request_size", "requestSize"], ["instance_id", "instanceId"], ["sent_invalid", "sentInvalid"], ["client", "client"],
] as const satisfies readonly (readonly [string, keyof PendingCall])[];

const COMPLETION_COLUMNS = [
  ["status", "status"], ["is_error", "isError"], ["result", "result"], ["error", "error"],
  ["finished_at", "finishedAt"], ["duration_ms", "durationMs"], ["result_size", "resultSize"],
] as const satisfies readonly (readonly [string, keyof CallCompletion])[];

/**
 * The two writes every call makes, as prepared statements on the driver under Prisma: a pending
 * row before the request leaves, its completion after. Through Prisma's query layer they cost
 * more CPU than the rest of a call (docs/architecture.md, "The call path"); everything else about
 * calls stays in Prisma.
 */
export interface CallJournal {
  pending(call: PendingCall): Promise<void>;
  complete(id: string, completion: CallCompletion): Promise<void>;
}

const journalSlot = piece("callJournal", () => ({ journal: null }));

function journal(): Promise<CallJournal> {
  return (journalSlot.journal ??= driver().then(open));
}

/** Writes the pending row; resolves once it is committed. */
export async function recordPending(call: PendingCall): Promise<void> {
  await (await journal()).pending(call);
}

/** Completes a call's row; throws (the caller retries) when the database refuses. */
export async function recordCompletion(id: string, completion: CallCompletion): Promise<void> {
  await (await journal()).complete(id, completion);
}

function open(d: Driver): CallJournal {
  return d.kind === "sqlite" ? sqliteJournal(d.db) : postgresJournal(d.pool);
}

function sqliteJournal(db: BetterSqlite3.Database): CallJournal {
  const insert = db.prepare(
    `INSERT INTO "call" (${PENDING_COLUMNS.map(([c]) => `"${c}"`).join(", ")}) VALUES (${PENDING_COLUMNS.map(() => "?").join(", ")})`,
  );
  const update = db.prepare(`UPDATE "call" SET ${COMPLETION_COLUMNS.map(([c]) => `"${c}" = ?`).join(", ")} WHERE "id" = ?`);
  const insertAll = db.transaction((calls: PendingCall[]) => {
    for (const call of calls) insert.run(PENDING_COLUMNS.map(([, key]) => sqliteValue(call[key])));
  });
  const updateAll = db.transaction((rows: [string, CallCompletion][]) => {
    for (const [id, completion] of rows) update.run([...COMPLETION_COLUMNS.map(([, key]) => sqliteValue(completion[key])), id]);
  });
  // better-sqlite3 is synchronous: a batch gathers what arrives before the next turn of the loop.
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  return {
    pending: grouped(async (calls) => {
      await nextTurn();
      await outsideTransaction(db);
      insertAll(calls);
    }),
    complete: withId(grouped(async (rows) => {
      await nextTurn();
      await outsideTransaction(db);
      updateAll(rows);
    })),
  };
}

function postgresJournal(pool: import("pg").Pool): CallJournal {
  const width = PENDING_COLUMNS.length;
  const names = ["id", ...COMPLETION_COLUMNS.map(([c]) => c)];
  // VALUES hands every parameter over as text: each column is cast back to its own type.
  const casts: Record<string, string> = { is_error: "::boolean", finished_at: "::timestamp(3)", duration_ms: "::double precision", result_size: "::integer" };
  return {
    pending: grouped(async (calls) => {
      await pool.query({
        name: `call-journal-pending-${calls.length}`,
        text: `INSERT INTO "call" (${PENDING_COLUMNS.map(([c]) => `"${c}"`).join(", ")}) VALUES ${placeholders(calls.length, width)}`,
        values: calls.flatMap((call) => PENDING_COLUMNS.map(([, key]) => postgresValue(call[key]))),
      });
    }),
    complete: withId(grouped(async (rows) => {
      await pool.query({
        name: `call-journal-complete-${rows.length}`,
        text: `UPDATE "call" AS c SET ${COMPLETION_COLUMNS.map(([col]) => `"${col}" = v."${col}"${casts[col] ?? ""}`).join(", ")}
          FROM (VALUES ${placeholders(rows.length, names.length)}) AS v(${names.map((n) => `"${n}"`).join(", ")}) WHERE c."id" = v."id"`,
        values: rows.flatMap(([id, completion]) => [id, ...COMPLETION_COLUMNS.map(([, key]) => postgresValue(completion[key]))]),
      });
    })),
  };
}

// At most this many rows in one statement (and one prepared statement per size up to it).
const MAX_GROUP = 64;

/**
 * Group commit: what arrives while a write is in flight goes out together in the next one, so
 * under load many calls share one commit and at one call at a time nothing waits. When a group
 * fails, each of its rows is tried alone: one bad row fails only its own call.
 */
function grouped<T>(write: (items: T[]) => Promise<void>): (item: T) => Promise<void> {
  const queue: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];
  let busy = false;
  const drain = async () => {
    busy = true;
    while (queue.length) {
      const group = queue.splice(0, MAX_GROUP);
      try {
        await write(group.map((g) => g.item));
        for (const g of group) g.resolve();
      } catch (err) {
        if (group.length === 1) group[0]!.reject(err);
        else for (const g of group) await write([g.item]).then(g.resolve, g.reject);
      }
    }
    busy = false;
  };
  return (item) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!busy) void drain();
    });
}

function withId(write: (row: [string, CallCompletion]) => Promise<void>): CallJournal["complete"] {
  return (id, completion) => write([id, completion]);
}
