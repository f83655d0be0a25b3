import { PrismaClient } from "@prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { databaseUrl } from "./url";

function createClient() {
  const adapter = new PrismaBetterSQLite3({ url: databaseUrl() });
  // Secret columns leave the database only through an explicit `select`.
  return new PrismaClient({
    adapter,
    omit: {
      server: { headersSecret: true },
      apiToken: { tokenHash: true },
      agent: { tokenHash: true },
      agentPairing: { codeHash: true },
    },
  });
}

const globalForPrisma = globalThis as unknown as { switchboardPrisma?: ReturnType<typeof createClient> };

/** The process-wide Prisma client (one per process, survives Next's module reloads). */
export const prisma = globalForPrisma.switchboardPrisma ?? createClient();
globalForPrisma.switchboardPrisma = prisma;
