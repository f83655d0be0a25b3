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

/**
 * SQLite keeps no statistics unless asked (PostgreSQL's autovacuum analyses by itself): without
 * them, history filters that combine a rare and a common value can walk the wrong index at a
 * million calls. `optimize` with 0x10000 looks at every table and analyses those whose size
 * changed a lot since the last analysis; analysis_limit samples each index, so it stays in
 * milliseconds. Run at open and hourly, as SQLite recommends for long-lived connections.
 */
export async function optimizeSqlite(client: { $queryRawUnsafe(sql: string): Promise<unknown>; $executeRawUnsafe(sql: string): Promise<number> }): Promise<void> {
  await client.$queryRawUnsafe("PRAGMA analysis_limit = 1000");
  await client.$queryRawUnsafe("PRAGMA optimize = 0x10002");
  // Statistics another connection wrote (another instance, an import) do not reach an open
  // connection until its schema reloads: this reloads them.
  await client.$executeRawUnsafe("ANALYZE sqlite_schema");
}
