// Also run by lib/start's graph (instanceCalls): nothing here may import "server-only".
import { driver } from "@/lib/core/db/client";
import { callCompleted, callIsTask, callPending, callRecorded, journalWrite, orphanCallsInterrupted, ownCallsInterrupted, type CallLabels } from "@/lib/core/metrics";
import { existingPiece, piece } from "@/lib/core/runtime";
import { COMPLETION_FIELDS, PENDING_FIELDS, PROGRESS_FIELDS, TASK_FIELDS, type CallCompletion, type PendingCall, type TaskState } from "./columns";
import { col, dialectOf, grouped, groupedById, type Dialect } from "./journal-sql";

export type { CallCompletion, PendingCall, TaskState } from "./columns";

/**
 * The one writer of call rows (docs/architecture.md, "The journal"): statements on the driver
 * under Prisma, built from one column descriptor (./columns.ts) for both databases. Through
 * Prisma's query layer the two writes every call makes cost more CPU than the rest of a call
 * (docs/architecture.md, "The call path"). Reads stay in Prisma (./queries.ts).
 */
export interface CallJournal {
  pending(call: PendingCall): Promise<void>;
  /** A call that never reached its server: pending and finished in one row. */
  failed(call: PendingCall & CallCompletion): Promise<void>;
  complete(id: string, completion: CallCompletion): Promise<void>;
  progress(id: string, row: { progress: string }): Promise<void>;
  task(id: string, state: TaskState): Promise<void>;
  taskComplete(id: string, row: CallCompletion & Pick<TaskState, "taskStatus" | "taskUpdatedAt">): Promise<void>;
  dialect: Dialect;
}

/** Call summaries for audit sinks (lib/core/audit's stream-calls, installed by lib/start): cheap when nothing streams. */
interface CallStream {
  started(call: PendingCall): void;
  finished(id: string, end: CallCompletion, start?: PendingCall): Promise<void>;
}
const callStream = () => existingPiece<CallStream>("callStream");

const journalSlot = () => piece<{ journal: Promise<CallJournal> | null }>("callJournal", () => ({ journal: null }));

function journal(): Promise<CallJournal> {
  return (journalSlot().journal ??= driver().then((d) => open(dialectOf(d))));
}

function open(dialect: Dialect): CallJournal {
  const failedFields = [...PENDING_FIELDS, ...COMPLETION_FIELDS];
  const taskCompleteFields = [...COMPLETION_FIELDS, "taskStatus", "taskUpdatedAt"] as const;
  return {
    pending: grouped(dialect.insert("pending", PENDING_FIELDS)),
    failed: grouped(dialect.insert("failed", failedFields)),
    complete: groupedById(dialect.update("complete", COMPLETION_FIELDS)),
    progress: groupedById(dialect.update("progress", PROGRESS_FIELDS)),
    task: groupedById(dialect.update("task", TASK_FIELDS)),
    taskComplete: groupedById(dialect.update("task-complete", taskCompleteFields)),
    dialect,
  };
}

// Every call row passes here, so the call metrics (lib/core/metrics) are counted here, once a row is finished.
const labelsOf = (call: PendingCall): CallLabels => ({ serverId: call.serverId, method: call.method, tool: call.name, origin: call.origin });

/** Writes the pending row; resolves once it is committed (before the request leaves). */
export async function recordPending(call: PendingCall): Promise<void> {
  await journalWrite((await journal()).pending({ policyRuleId: null, virtualServer: null, ...call }));
  callStream()?.started(call);
  callPending(call.id, labelsOf(call));
}

/** Completes a call's row; throws (the caller retries, ./complete.ts) when the database refuses. */
export async function recordCompletion(id: string, completion: CallCompletion): Promise<void> {
  await journalWrite((await journal()).complete(id, completion));
  callCompleted(id, completion.status, completion.durationMs);
  await callStream()?.finished(id, completion);
}

/** A call that failed before anything was sent (no connection to its server): one finished row. */
export async function recordFailedCall(call: PendingCall & CallCompletion): Promise<void> {
  await journalWrite((await journal()).failed({ policyRuleId: null, virtualServer: null, ...call }));
  callRecorded(labelsOf(call), call.status, call.durationMs);
  await callStream()?.finished(call.id, call, call);
}

/** The latest progress of a running call (JSON { progress, total?, message? }). */
export async function recordProgress(id: string, progress: string): Promise<void> {
  await (await journal()).progress(id, { progress });
}

/** What the server last said about a call's task (the call stays pending). */
export async function recordTaskState(id: string, state: TaskState): Promise<void> {
  await (await journal()).task(id, state);
  callIsTask(id);
}

/** A task call's outcome, with the task's final status. */
export async function recordTaskCompletion(id: string, row: CallCompletion & Pick<TaskState, "taskStatus" | "taskUpdatedAt">): Promise<void> {
  await journalWrite((await journal()).taskComplete(id, row));
  callCompleted(id, row.status, row.durationMs);
  await callStream()?.finished(id, row);
}

const INTERRUPTED = JSON.stringify({ kind: "interrupted", message: "The console instance that sent it stopped before the answer arrived" });

/** Pending calls sent by an instance not in `alive` (or by none recorded), or by the instance `of`. */
function sentBy(where: { notIn: string[] } | { of: string }): [string, string[]] {
  if ("of" in where) return [`${col("instanceId")} = ?`, [where.of]];
  if (!where.notIn.length) return ["1 = 1", []];
  return [`(${col("instanceId")} IS NULL OR ${col("instanceId")} NOT IN (${where.notIn.map(() => "?").join(", ")}))`, where.notIn];
}

/**
 * Marks interrupted the pending calls of instances that are gone (or this one's, at a graceful
 * stop): they never get their answer recorded. Task calls are not interrupted: their task lives
 * on the server, and the poller resumes them (claimTaskCalls).
 */
async function interruptPending(where: { notIn: string[] } | { of: string }): Promise<number> {
  const [condition, values] = sentBy(where);
  const { dialect } = await journal();
  const { changes } = await dialect.run(
    `UPDATE "call" SET ${col("status")} = 'interrupted', ${col("finishedAt")} = ?, ${col("error")} = ?
     WHERE ${col("status")} = 'pending' AND ${col("taskId")} IS NULL AND ${condition}`,
    [new Date(), INTERRUPTED, ...values],
  );
  return changes;
}

/**
 * Takes over the task calls still pending of instances not in `alive`: one conditional update,
 * so two instances never both follow one. Returns the ids claimed.
 */
async function claimTaskCalls(alive: string[], me: string): Promise<string[]> {
  const [condition, values] = sentBy({ notIn: alive });
  const { dialect } = await journal();
  const { rows } = await dialect.run(
    `UPDATE "call" SET ${col("instanceId")} = ? WHERE ${col("status")} = 'pending' AND ${col("taskId")} IS NOT NULL AND ${condition} RETURNING ${col("id")} AS id`,
    [me, ...values],
  );
  return rows.map((r) => String(r.id));
}

/** What lib/core/instances needs of call rows when instances come and go (handed to it by lib/start). */
export const instanceCalls = {
  interruptOrphans: async (alive: string[]) => {
    const n = await interruptPending({ notIn: alive });
    orphanCallsInterrupted(n);
    return n;
  },
  interruptOwn: async (id: string) => {
    const n = await interruptPending({ of: id });
    ownCallsInterrupted();
    return n;
  },
  claimTaskCalls,
};
