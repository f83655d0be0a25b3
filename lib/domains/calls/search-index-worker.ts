import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { indexCalls, type IndexRun } from "./search-index-pass";

/**
 * The search indexer's thread (lib/domains/calls/search-index.ts): its own connection to the console's
 * SQLite file, as a second instance would have, so the tokenizer never holds the console's event
 * loop. Each "index" message runs the indexer until nothing finished is left, then answers with
 * what it did.
 */
const { file, budgetMs } = workerData as { file: string; budgetMs: number };
const db = new Database(file);
// WAL is the file's own mode (set by the console); synchronous is per connection: as the console's,
// a commit syncs at checkpoints (an fsync per batch made the thread several times slower).
db.pragma("synchronous = NORMAL");
db.pragma("busy_timeout = 5000");

parentPort!.on("message", (message: "index" | "close") => {
  if (message === "close") {
    db.close();
    parentPort!.close();
    return;
  }
  const run: IndexRun = { batches: 0, calls: 0, longestMs: 0 };
  indexCalls(db, { budgetMs, run }).then(
    () => parentPort!.postMessage({ run }),
    (err: Error & { code?: string }) => parentPort!.postMessage({ run, error: { message: err.message, code: err.code } }),
  );
});
