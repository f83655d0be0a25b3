import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { driver } from "@/lib/core/db/client";
import { outsideTransaction } from "@/lib/core/db/bulk";
import { config } from "@/lib/core/config";
import { piece } from "@/lib/core/runtime";
import { indexCalls, type IndexRun } from "./search-index-pass";

export { indexCalls } from "./search-index-pass";

// Run by lib/start's scheduler, outside Next's bundles: nothing here may import "server-only".

/**
 * SWITCHBOARD_SEARCH_INDEX_THREAD=1 runs the indexer in a thread of its own connection, off the event
 * loop. Not the default: a second writer, its back-to-back batches compete for the write lock with
 * the console's own writes (busy timeout 50 ms), and it was no faster in the runs of
 * docs/benchmarks.md ("Search after an import").
 */
const THREAD = config().searchIndexThread;
/**
 * One batch's length. In its thread the indexer holds only the write lock: a call's write waits
 * for the batch, within the console's busy timeout (50 ms, lib/core/db/client.ts). On the console's own
 * connection it holds the event loop too.
 */
const THREAD_BUDGET_MS = 20;
const SHARED_BUDGET_MS = 10;
/** A run that indexed this many calls (an import, an upgrade) is logged with its longest batch. */
const LOG_CALLS = 10_000;

export interface SearchIndexer {
  running: Promise<number> | null;
  thread: Worker | null;
  threadFailed: boolean;
}

const indexer = () => piece("searchIndexer", (): SearchIndexer => ({ running: null, thread: null, threadFailed: false }));

// Node 20 does not run the parent's --import hooks (tsx) in a worker: the worker registers tsx itself.
function startThread(file: string): Worker {
  const entry = new URL("./search-index-worker.ts", import.meta.url).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  const worker = new Worker(boot, { eval: true, workerData: { file, budgetMs: THREAD_BUDGET_MS } });
  worker.unref();
  return worker;
}

/** One run in the thread (rejects if the thread fails); it keeps the process alive only while it works. */
async function runInThread(worker: Worker, run: IndexRun): Promise<void> {
  worker.ref();
  try {
    const [answer] = (await once(worker, "message")) as [{ run: IndexRun; error?: { message: string; code?: string } }];
    Object.assign(run, answer.run);
    if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
  } finally {
    worker.unref();
  }
}

async function indexNow(state: SearchIndexer): Promise<number> {
  const d = await driver();
  if (d.kind !== "sqlite") return 0;
  const run: IndexRun = { batches: 0, calls: 0, longestMs: 0 };
  const start = performance.now();
  if (THREAD && !state.thread && !state.threadFailed) {
    state.thread = startThread(d.db.name);
    // A thread that cannot start or dies: the indexer carries on on the console's connection.
    state.thread.on("error", (err) => {
      console.error(`[search] indexer thread failed: ${err.message}`);
      state.thread = null;
      state.threadFailed = true;
    });
  }
  const worker = state.thread;
  if (worker) {
    const answered = runInThread(worker, run);
    worker.postMessage("index");
    await answered;
  } else {
    await indexCalls(d.db, { budgetMs: SHARED_BUDGET_MS, waitTurn: () => outsideTransaction(d.db), run });
  }
  if (run.calls >= LOG_CALLS) {
    const seconds = ((performance.now() - start) / 1000).toFixed(1);
    console.log(`[search] indexed ${run.calls} calls in ${run.batches} batches, ${seconds} s (longest batch ${run.longestMs.toFixed(1)} ms)`);
  }
  return run.batches;
}

/** Runs the indexer now (joining a run in progress) and resolves when nothing finished is left unindexed. */
export function indexPendingNow(): Promise<number> {
  const state = indexer();
  state.running ??= indexNow(state).finally(() => (state.running = null));
  return state.running;
}

/** The `search.index` job (SQLite only, lib/start/jobs.ts): a pass that indexes what finished since the last. */
export async function indexFinishedCalls(): Promise<void> {
  if (indexer().running) return;
  await indexPendingNow().catch(reportFailure);
}

/** Indexes what finished meanwhile (a graceful stop leaves nothing behind) and ends the indexer's thread. */
export async function stopSearchIndexer(): Promise<void> {
  const state = indexer();
  await indexPendingNow().catch(reportFailure);
  const worker = state.thread;
  state.thread = null;
  if (worker) {
    worker.postMessage("close");
    await once(worker, "exit").catch(() => undefined);
  }
}

// Another instance holding the write lock past the busy timeout: the next pass catches up.
function reportFailure(err: Error & { code?: string }): void {
  if (err.code !== "SQLITE_BUSY") console.error(`[search] indexing failed: ${err.message}`);
}

/** SQLite: finished calls not in the search index yet (lib/core/metrics); null on PostgreSQL, which has no indexer. */
export async function searchIndexBacklog(): Promise<number | null> {
  const d = await driver();
  if (d.kind !== "sqlite") return null;
  const row = d.db
    .prepare(
      `SELECT (SELECT count(*) FROM "call" WHERE rowid > (SELECT "indexed_through" FROM "call_search_state" WHERE "id" = 1) AND "status" <> 'pending')
        + (SELECT count(*) FROM "call_search_unindexed" u CROSS JOIN "call" c ON c.rowid = u."call_rowid" WHERE c."status" <> 'pending') AS n`,
    )
    .safeIntegers(false)
    .get() as { n: number };
  return row.n;
}
