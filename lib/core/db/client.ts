import { createRequire } from "node:module";
import path from "node:path";
import { Prisma, PrismaClient } from "@prisma/client";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { databaseUrl, isPostgresUrl } from "./url";
import { config } from "@/lib/core/config";
import { OPTIMIZE_INTERVAL_MS, optimizeSqlite, releasingFailedCommits } from "./sqlite";
import { piece } from "@/lib/core/runtime";

/** Which database this process talks to, from DATABASE_URL (SQLite unless it is a postgres:// URL). */
export const databaseProvider: "sqlite" | "postgresql" = isPostgresUrl(databaseUrl()) ? "postgresql" : "sqlite";

// Secret columns leave the database only through an explicit `select`.
const omit = {
  server: { headersSecret: true, oauthClientSecret: true, idpClientSecret: true },
  identityToken: { idToken: true, refreshToken: true },
  call: { paramsSecret: true },
  oAuthClient: { infoSecret: true },
  oAuthCredential: { tokensSecret: true },
  oAuthFlow: { flowSecret: true },
  apiToken: { tokenHash: true },
  agent: { tokenHash: true },
  agentPairing: { codeHash: true },
  share: { tokenHash: true, tokenSecret: true },
  invitation: { tokenHash: true, tokenSecret: true },
  environment: { secrets: true },
} as const;

/**
 * The driver connection under Prisma, for the few hot statements that skip its query layer
 * (lib/domains/calls/journal.ts): the same SQLite connection (one writer, no lock between two) or pool.
 */
export type Driver = { kind: "sqlite"; db: BetterSqlite3.Database } | { kind: "postgresql"; pool: pg.Pool };
// In the runtime next to the client: the process's two module graphs share both.
const handles = () => piece<{ sqlite?: BetterSqlite3.Database; pool?: pg.Pool }>("dbDriver", () => ({}));

function createSqliteClient() {
  const factory = releasingFailedCommits(new PrismaBetterSQLite3({ url: databaseUrl() }));
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    handles().sqlite = (adapter as unknown as { client: BetterSqlite3.Database }).client;
    return adapter;
  };
  return new PrismaClient({ adapter: factory, omit });
}

type Client = ReturnType<typeof createSqliteClient>;

/**
 * The PostgreSQL client is generated from the same models (prisma/postgres/schema.prisma) next to
 * the SQLite one (where `npm install` leaves it alone), loaded only when it is used. Its API is the
 * SQLite client's, so it is typed as one; it carries its own copy of Prisma's runtime, so raw SQL
 * fragments must come from its `Prisma` namespace (`sql` below) and errors are recognised by shape.
 */
type PostgresModule = { PrismaClient: new (opts: object) => unknown; Prisma: typeof Prisma };
function loadPostgresModule(): PostgresModule {
  const load = createRequire(path.join(process.cwd(), "package.json"));
  return load(path.join(process.cwd(), "node_modules/.prisma/client-postgres")) as PostgresModule;
}

// A statement waiting on a lock fails after this long (55P03 → 503 with Retry-After, lib/core/db/faults.ts)
// rather than holding its request, and a pool connection, indefinitely.
function createPostgresClient(): Client {
  const { dbPool: max, dbLockTimeoutMs: lockTimeout } = config();
  const pool = new pg.Pool({ connectionString: databaseUrl(), max, options: `-c lock_timeout=${lockTimeout}` });
  pool.on("error", (err) => console.error("[db] idle PostgreSQL connection failed:", err.message));
  handles().pool = pool;
  return new (loadPostgresModule().PrismaClient)({ adapter: new PrismaPg(pool), omit }) as Client;
}


/**
 * WAL lets reads run while a write commits, and synchronous=NORMAL syncs at checkpoints instead
 * of on every commit (durable against process crashes, the usual WAL setting). better-sqlite3
 * waits for a lock synchronously, blocking the event loop: wait no longer than a checkpoint takes,
 * then fail (503 with Retry-After, lib/core/db/faults.ts) and let the caller retry.
 */
async function tuneSqlite(client: Client) {
  await client.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await client.$queryRawUnsafe("PRAGMA synchronous = NORMAL");
  await client.$queryRawUnsafe("PRAGMA busy_timeout = 50");
  await optimizeSqlite(client);
}

/** SQLite's `PRAGMA optimize` (the `sqlite.optimize` job, every OPTIMIZE_INTERVAL_MS on each instance); nothing on PostgreSQL. */
export async function optimizeDatabase(): Promise<void> {
  if (databaseProvider === "sqlite") await optimizeSqlite(prisma);
}

export { OPTIMIZE_INTERVAL_MS };

export type DbClient = Client;

/** The process-wide Prisma client (one per process, in the runtime: it survives Next's module reloads). */
export const prisma = piece("db", () => {
  if (databaseProvider === "postgresql") return createPostgresClient();
  const client = createSqliteClient();
  void tuneSqlite(client).catch((err) => console.error("[db] could not tune SQLite", err));
  return client;
});

/** The driver under the Prisma client (connected first if it was not yet). */
export async function driver(): Promise<Driver> {
  const client = prisma;
  if (databaseProvider === "postgresql") return { kind: "postgresql", pool: handles().pool! };
  if (!handles().sqlite) await client.$connect();
  return { kind: "sqlite", db: handles().sqlite! };
}

/** Raw SQL fragment builders of the client in use, for `prisma.$queryRaw` templates. */
export const sql: Pick<typeof Prisma, "join" | "raw" | "sql" | "empty"> = databaseProvider === "postgresql" ? loadPostgresModule().Prisma : Prisma;

/** A case-insensitive substring filter with the same meaning on both databases (SQLite's LIKE already ignores ASCII case). */
export function containsText(text: string): { contains: string } {
  return (databaseProvider === "postgresql" ? { contains: text, mode: "insensitive" } : { contains: text }) as { contains: string };
}
export { databaseFault, isUniqueViolation } from "./faults";
export { isDatabaseOutage, isOwnDatabaseOutage, retryOnOutage } from "./outage";
