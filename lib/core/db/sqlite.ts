import type { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

type Query = { sql: string; args: unknown[]; argTypes: unknown[] };
type Transaction = { executeRaw(query: Query): Promise<number>; rollback(): Promise<void> };
type Adapter = { startTransaction(level?: string): Promise<Transaction> };

/**
 * Prisma runs COMMIT as a query and releases the adapter's transaction lock only when it succeeds,
 * so a COMMIT that SQLite refuses (a full disk) would hold the lock and leave every later
 * transaction waiting forever. Roll such a transaction back and release the lock instead.
 */
export function releasingFailedCommits(factory: PrismaBetterSQLite3): PrismaBetterSQLite3 {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const start = (adapter as unknown as Adapter).startTransaction.bind(adapter);
    (adapter as unknown as Adapter).startTransaction = async (level) => {
      const tx = await start(level);
      const run = tx.executeRaw.bind(tx);
      tx.executeRaw = async (query) => {
        try {
          return await run(query);
        } catch (err) {
          if (query.sql === "COMMIT") {
            await run({ sql: "ROLLBACK", args: [], argTypes: [] }).catch(() => undefined);
            await tx.rollback();
          }
          throw err;
        }
      };
      return tx;
    };
    return adapter;
  };
  return factory;
}

export const OPTIMIZE_INTERVAL_MS = 3_600_000;

/** The two raw-SQL methods of a Prisma client (or a test's stand-in) the statistics upkeep needs. */
type SqlRunner = { $queryRawUnsafe(sql: string): Promise<unknown>; $executeRawUnsafe(sql: string): Promise<number> };

/**
 * SQLite keeps no statistics unless asked (PostgreSQL's autovacuum analyses by itself): without
 * them, history filters that combine a rare and a common value can walk the wrong index at a
 * million calls. `optimize` with 0x10000 looks at every table and analyses those whose size
 * changed a lot since the last analysis; analysis_limit samples each index, so it stays in
 * milliseconds. Run at open and hourly, as SQLite recommends for long-lived connections.
 */
export async function optimizeSqlite(client: SqlRunner): Promise<void> {
  // A file with no table yet (opened before `prisma migrate deploy` made it): the statistics tables
  // ANALYZE creates would make Migrate refuse it as "not empty" (P3005) at the next `npm start`.
  const tables = (await client.$queryRawUnsafe("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' LIMIT 1")) as unknown[];
  if (!tables.length) return;
  await client.$queryRawUnsafe("PRAGMA analysis_limit = 1000");
  await client.$queryRawUnsafe("PRAGMA optimize = 0x10002");
  await sizeSearchIndexForThePlanner(client);
  // Statistics another connection wrote (another instance, an import) do not reach an open
  // connection until its schema reloads: this reloads them.
  await client.$executeRawUnsafe("ANALYZE sqlite_schema");
}

/**
 * Analysed while the index was small (a new file, an import not indexed yet), "call_search_data"
 * (FTS5's blocks of the history search index) was counted at 2 rows, and with that the planner ran
 * FTS5's delete of merged segments (`id >= ? AND id <= ?`) as a scan of the whole table: indexing
 * slowed as the index grew, a million imported calls took 770 s instead of ~20 s (docs/benchmarks.md,
 * issue 28). Its statistic is fixed at a size where a rowid range is always searched; the planner
 * keeps a table's estimate until it reads another, so deleting the row would not do on an open
 * connection.
 */
async function sizeSearchIndexForThePlanner(client: SqlRunner): Promise<void> {
  const present = (await client.$queryRawUnsafe("SELECT name FROM sqlite_master WHERE name IN ('sqlite_stat1', 'call_search_data')")) as { name: string }[];
  if (present.length < 2) return;
  await client.$executeRawUnsafe("DELETE FROM sqlite_stat1 WHERE tbl = 'call_search_data'");
  await client.$executeRawUnsafe("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('call_search_data', NULL, '1000000')");
}
