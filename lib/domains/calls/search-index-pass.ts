import type BetterSqlite3 from "better-sqlite3";

// Loaded by the indexer's worker thread too: no imports beyond better-sqlite3 (no Prisma, no runtime).

/**
 * A pass takes finished calls until their text reaches a budget, which adapts so that one
 * transaction lasts about `budgetMs`: the trigram tokenizer costs ~0.1–0.3 µs per character, and
 * FTS5's merges make some transactions several times longer than others. The write lock is held for
 * the transaction (another connection's write waits for it), and on the console's own connection
 * the event loop too.
 */
const MIN_CHARS = 32_000;
const MAX_CHARS = 4_000_000;
const FIRST_CHARS = 48_000;
const MAX_ROWS = 20_000;
/**
 * Past this many calls to index, a run is a backlog: FTS5 merges less often and batches last up to
 * 25 ms (under the console's 50 ms busy timeout for a write waiting on the indexer's thread).
 */
const BACKLOG_CALLS = 10_000;
const BACKLOG_BUDGET_MS = 25;

/** Statements of one pass, prepared once per connection. */
interface Statements {
  pass: (rows: number, chars: number) => number;
  waiting: BetterSqlite3.Statement;
  backlog: BetterSqlite3.Statement;
}

const prepared = new WeakMap<BetterSqlite3.Database, Statements>();

function statements(db: BetterSqlite3.Database): Statements {
  let s = prepared.get(db);
  if (s) return s;
  setMerging(db, false);
  // Prisma's adapter turns safe integers on for the connection: rowids and lengths as numbers here.
  const prepare = (sql: string) => db.prepare(sql).safeIntegers(false);
  const through = prepare(`SELECT "indexed_through" AS n FROM "call_search_state" WHERE "id" = 1`).pluck();
  const finishedSkipped = prepare(
    `SELECT u."call_rowid" FROM "call_search_unindexed" u CROSS JOIN "call" c ON c.rowid = u."call_rowid" WHERE c."status" <> 'pending' ORDER BY u."call_rowid" LIMIT ?`,
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
  const pass = db.transaction((rows: number, budget: number): number => {
    let handled = 0;
    for (const rowid of finishedSkipped.all(Math.min(rows, 256)) as number[]) {
      indexOne.run(rowid);
      forgetSkipped.run(rowid);
      handled++;
    }
    const from = through.get() as number;
    let to: number | null = null;
    let chars = 0;
    // Stepped row by row: reading every candidate's length up front read 20,000 rows per batch
    // to take a few hundred (most of an import's indexing time).
    for (const [rowid, n] of next.iterate(from, rows) as IterableIterator<[number, number]>) {
      if (to !== null && chars + n > budget) break;
      to = rowid;
      chars += n;
    }
    if (to === null) return handled;
    handled += indexRange.run(from, to).changes + skipRange.run(from, to).changes;
    advance.run(to);
    return handled;
  }).immediate;
  // CROSS JOIN keeps the (small) list of skipped calls first: as a plain JOIN, SQLite walked every
  // call probing the list, 187 ms at a million calls, twice a pass, on the event loop.
  const waiting = prepare(
    `SELECT (SELECT ifnull(max(rowid), 0) FROM "call") > (SELECT "indexed_through" FROM "call_search_state" WHERE "id" = 1)
      OR EXISTS (SELECT 1 FROM "call_search_unindexed" u CROSS JOIN "call" c ON c.rowid = u."call_rowid" WHERE c."status" <> 'pending')`,
  ).pluck();
  const backlog = prepare(`SELECT (SELECT ifnull(max(rowid), 0) FROM "call") - (SELECT "indexed_through" FROM "call_search_state" WHERE "id" = 1)`).pluck();
  s = { pass, waiting, backlog };
  prepared.set(db, s);
  return s;
}

/**
 * FTS5 merges its segments as it goes: once 4 share a level ('automerge'), all at once at 16
 * ('crisismerge'). 16 and 64 halve the merge work of indexing a large backlog (an import, an
 * upgrade), but in steady use (a few calls per pass) they made each call's indexing 2.4× the CPU, a
 * tenth of the console's under call load (docs/benchmarks.md, issue 28): a run with a backlog sets
 * them for itself and the defaults back when it ends (at the next start, after a crash). Stored in
 * the index's own config table.
 */
function setMerging(db: BetterSqlite3.Database, backlog: boolean): void {
  const [automerge, crisismerge] = backlog ? [16, 64] : [4, 16];
  const config = db.prepare(`SELECT "k", "v" FROM "call_search_config" WHERE "k" IN ('automerge', 'crisismerge')`).safeIntegers(false).all() as { k: string; v: number }[];
  const now = new Map(config.map((r) => [r.k, r.v]));
  if ((now.get("automerge") ?? 4) === automerge && (now.get("crisismerge") ?? 16) === crisismerge) return;
  try {
    db.exec(`INSERT INTO "call_search"("call_search", rank) VALUES ('automerge', ${automerge}); INSERT INTO "call_search"("call_search", rank) VALUES ('crisismerge', ${crisismerge});`);
  } catch (err) {
    // Another writer holds the lock: the next run sets them, answers are the same.
    if ((err as { code?: string }).code !== "SQLITE_BUSY") throw err;
  }
}

/** What one run of the indexer did (for the log and the benchmark). */
export interface IndexRun {
  batches: number;
  calls: number;
  longestMs: number;
}

/**
 * Indexes for history search the finished calls not indexed yet, a batch per transaction of
 * about `budgetMs`, yielding to the event loop between batches (after `waitTurn` first, when the
 * connection is shared); calls still pending are noted and indexed once they finish. Safe beside
 * other instances on the same file. Resolves with how many batches it ran.
 */
export async function indexCalls(
  db: BetterSqlite3.Database,
  { budgetMs = 10, waitTurn, run }: { budgetMs?: number; waitTurn?: () => Promise<void>; run?: IndexRun } = {},
): Promise<number> {
  await waitTurn?.();
  const { pass, waiting, backlog } = statements(db);
  const large = (backlog.get() as number) > BACKLOG_CALLS;
  if (large) setMerging(db, true);
  const budget = large ? Math.max(budgetMs, BACKLOG_BUDGET_MS) : budgetMs;
  let batches = 0;
  let chars = FIRST_CHARS;
  try {
    while (waiting.get()) {
      await waitTurn?.();
      const start = performance.now();
      const handled = pass(MAX_ROWS, chars);
      const ms = performance.now() - start;
      if (!handled) break;
      batches++;
      if (run) {
        run.batches++;
        run.calls += handled;
        run.longestMs = Math.max(run.longestMs, ms);
      }
      chars = Math.round(Math.min(MAX_CHARS, Math.max(MIN_CHARS, chars * Math.min(2, Math.max(0.5, budget / Math.max(ms, 0.1))))));
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    if (large) {
      await waitTurn?.();
      setMerging(db, false);
    }
  }
  return batches;
}
