import { PrismaClient } from "@prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { databaseUrl } from "./url";

type Query = { sql: string; args: unknown[]; argTypes: unknown[] };
type Transaction = { executeRaw(query: Query): Promise<number>; rollback(): Promise<void> };
type Adapter = { startTransaction(level?: string): Promise<Transaction> };

/**
 * Prisma runs COMMIT as a query and releases the adapter's transaction lock only when it succeeds,
 * so a COMMIT that SQLite refuses (a full disk) would hold the lock and leave every later
 * transaction waiting forever. Roll such a transaction back and release the lock instead.
 */
function releasingFailedCommits(factory: PrismaBetterSQLite3): PrismaBetterSQLite3 {
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

function createClient() {
  const adapter = releasingFailedCommits(new PrismaBetterSQLite3({ url: databaseUrl() }));
  // Secret columns leave the database only through an explicit `select`.
  return new PrismaClient({
    adapter,
    omit: {
      server: { headersSecret: true, oauthClientSecret: true },
      call: { paramsSecret: true },
      oAuthClient: { infoSecret: true },
      oAuthCredential: { tokensSecret: true },
      oAuthFlow: { flowSecret: true },
      apiToken: { tokenHash: true },
      agent: { tokenHash: true },
      agentPairing: { codeHash: true },
      share: { tokenHash: true, tokenSecret: true },
      invitation: { tokenHash: true, tokenSecret: true },
    },
  });
}

/**
 * WAL lets reads run while a write commits, and synchronous=NORMAL syncs at checkpoints instead
 * of on every commit (durable against process crashes, the usual WAL setting). better-sqlite3
 * waits for a lock synchronously, blocking the event loop: wait no longer than a checkpoint takes,
 * then fail (503 with Retry-After, lib/db/faults.ts) and let the caller retry.
 */
async function tuneSqlite(client: ReturnType<typeof createClient>) {
  await client.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await client.$queryRawUnsafe("PRAGMA synchronous = NORMAL");
  await client.$queryRawUnsafe("PRAGMA busy_timeout = 50");
}

const globalForPrisma = globalThis as unknown as { switchboardPrisma?: ReturnType<typeof createClient> };

/** The process-wide Prisma client (one per process, survives Next's module reloads). */
export const prisma = globalForPrisma.switchboardPrisma ?? createClient();
if (!globalForPrisma.switchboardPrisma) {
  globalForPrisma.switchboardPrisma = prisma;
  void tuneSqlite(prisma).catch((err) => console.error("[db] could not tune SQLite", err));
}
export { databaseFault } from "./faults";
