import { PrismaClient } from "@prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { databaseUrl } from "./url";

function createClient() {
  const adapter = new PrismaBetterSQLite3({ url: databaseUrl() });
  // Secret columns leave the database only through an explicit `select`.
  return new PrismaClient({
    adapter,
    omit: {
      server: { headersSecret: true, oauthClientSecret: true },
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
 * of on every commit (durable against process crashes, the usual WAL setting).
 */
async function tuneSqlite(client: ReturnType<typeof createClient>) {
  await client.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await client.$queryRawUnsafe("PRAGMA synchronous = NORMAL");
  await client.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
}

const globalForPrisma = globalThis as unknown as { switchboardPrisma?: ReturnType<typeof createClient> };

/** The process-wide Prisma client (one per process, survives Next's module reloads). */
export const prisma = globalForPrisma.switchboardPrisma ?? createClient();
if (!globalForPrisma.switchboardPrisma) {
  globalForPrisma.switchboardPrisma = prisma;
  void tuneSqlite(prisma).catch((err) => console.error("[db] could not tune SQLite", err));
}
