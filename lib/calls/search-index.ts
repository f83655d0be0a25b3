import type BetterSqlite3 from "better-sqlite3";
import { driver } from "@/lib/db/client";
import { outsideTransaction } from "@/lib/db/bulk";
import { piece } from "@/lib/runtime";

// Started by server.ts, outside Next's bundles: nothing here may import "server-only".

/** How often the indexer looks for finished calls (SWITCHBOARD_SEARCH_INDEX_MS overrides; 0 turns the timer off). */
const INTERVAL_MS = Number(process.env.SWITCHBOARD_SEARCH_INDEX_MS ?? 1000);
/**
 * At most this many calls, and about this much text, per transaction. better-sqlite3 is synchronous
 * and shares Prisma's connection: a batch holds the event loop (and the write lock) while the
 * trigram tokenizer works, ~0.1–0.3 µs per character, so ~5–10 ms per batch.
 */
const BATCH = 256;
const BATCH_CHARS = 48_000;

export interface SearchIndexer {
  timer: NodeJS.Timeout | null;
  running: Promise<number> | null;
}

const indexer = () => piece("searchIndexer", (): SearchIndexer => ({ timer: null, running: null }));

/** Statements of one pass, prepared once per connection. */
interface Statements {
  pass: (batch: number) => number;
  waiting: BetterSqlite3.Statement;
}

const prepared = new WeakMap<BetterSqlite3.Database, Statements>();

function statements(db: BetterSqlite3.Database): Statements {
  let s = prepared.get(db);
  if (s) return s;
  // Prisma's adapter turns safe integers on for the connection: rowids and lengths as numbers here.
  const prepare = (sql: string) => db.prepare(sql).safeIntegers(false);
  const through = prepare(`SELECT "indexed_through" AS n FROM "call_search_state" WHERE "id" = 1`).pluck();
  const finishedSkipped = prepare(
    `SELECT u."call_rowid" FROM "call_search_unindexed" u JOIN "call" c ON c.rowid = u."call_rowid" WHERE c."status" <> 'pending' ORDER BY u."call_rowid" LIMIT ?`,
  ).pluck();
  const indexOne = prepare(`INSERT INTO "call_search"(rowid, params, result, error) SELECT rowid, params, result, error FROM "call" WHERE rowid = ?`);
  const forgetSkipped = prepare(`DELETE FROM "call_search_unindexed" WHERE "call_rowid" = ?`);
  const next = prepare(
    `SELECT rowid AS r, length(params) + ifnull(length(result), 0) + ifnull(length(error), 0) AS n FROM "call" WHERE rowid > ? ORDER BY rowid LIMIT ?`,
  ).raw();
  const indexRange = prepare(
    `INSERT INTO "call_search"(rowid, params, result, error) SELECT rowid, params, result, error FROM "call" WHERE rowid > ? AND rowid <= ? AND "status" <> 'pending'`,
  );
  const skipRange = prepare(`INSERT INTO "call_search_unindexed"("call_rowid") SELECT rowid FROM "call" WHERE rowid > ? AND rowid <= ? AND "status" = 'pending'`);
  const advance = prepare(`UPDATE "call_search_state" SET "indexed_through" = ? WHERE "id" = 1`);
  // IMMEDIATE: the state is read under the write lock, so two instances on one file never both index a call.
  const pass = db.transaction((batch: number): number => {
    let handled = 0;
    for (const rowid of finishedSkipped.all(batch) as number[]) {
      indexOne.run(rowid);
      forgetSkipped.run(rowid);
      handled++;
    }
    const from = through.get() as number;
    let to: number | null = null;
    let chars = 0;
    for (const [rowid, n] of next.all(from, batch) as [number, number][]) {
      if (to !== null && chars + n > BATCH_CHARS) break;
      to = rowid;
      chars += n;
    }
    if (to === null) return handled;
    handled += indexRange.run(from, to).changes + skipRange.run(from, to).changes;
    advance.run(to);
    return handled;
  }).immediate;
  const waiting = prepare(
    `SELECT (SELECT ifnull(max(rowid), 0) FROM "call") > (SELECT "indexed_through" FROM "call_search_state" WHERE "id" = 1)
      OR EXISTS (SELECT 1 FROM "call_search_unindexed" u JOIN "call" c ON c.rowid = u."call_rowid" WHERE c."status" <> 'pending')`,
  ).pluck();
  s = { pass, waiting };
  prepared.set(db, s);
  return s;
}

/**
 * Indexes for history search the finished calls not indexed yet, a batch per transaction,
 * yielding to the event loop between batches; calls still pending are noted and indexed once they
 * finish. Safe beside other instances on the same file. Returns how many batches it ran.
 */
export async function indexCalls(db: BetterSqlite3.Database, { batch = BATCH }: { batch?: number } = {}): Promise<number> {
  const { pass, waiting } = statements(db);
  let batches = 0;
  while (waiting.get()) {
    await outsideTransaction(db);
    if (!pass(batch)) break;
    batches++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return batches;
}

/** Runs the indexer now (joining a run in progress) and resolves when nothing finished is left unindexed. */
export function indexPendingNow(): Promise<number> {
  const state = indexer();
  state.running ??= driver()
    .then((d) => (d.kind === "sqlite" ? indexCalls(d.db) : 0))
    .finally(() => (state.running = null));
  return state.running;
}

/**
 * Starts (once per process, SQLite only: PostgreSQL's trigram indexes need no help) the search
 * indexer: a pass every interval that finds something to index. The timer does not keep the
 * process alive.
 */
export function startSearchIndexer({ sqlite }: { sqlite: boolean }): void {
  const state = indexer();
  if (!sqlite || state.timer || !(INTERVAL_MS > 0)) return;
  state.timer = setInterval(() => {
    if (state.running) return;
    indexPendingNow().catch(reportFailure);
  }, INTERVAL_MS);
  state.timer.unref();
}

/** Stops the timer and indexes what finished meanwhile (a graceful stop leaves nothing behind). */
export async function stopSearchIndexer(): Promise<void> {
  const state = indexer();
  if (!state.timer) return;
  clearInterval(state.timer);
  state.timer = null;
  await indexPendingNow().catch(reportFailure);
}

// Another instance holding the write lock past the busy timeout: the next pass catches up.
function reportFailure(err: Error & { code?: string }): void {
  if (err.code !== "SQLITE_BUSY") console.error(`[search] indexing failed: ${err.message}`);
}
