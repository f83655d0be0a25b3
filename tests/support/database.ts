import Database from "better-sqlite3";
import pg from "pg";

/**
 * Direct access to a test console's database, the same on SQLite and PostgreSQL: `?` placeholders,
 * Dates and booleans as parameters (stored the way Prisma stores them on each), quoted table names
 * ("user", "call") in the SQL. One connection per statement keeps tests free of open handles.
 */
export interface TestDatabase {
  readonly provider: "sqlite" | "postgresql";
  all<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T | undefined>;
  run(sql: string, ...params: unknown[]): Promise<number>;
  /** Several statements in one transaction (each a [sql, ...params] tuple). */
  batch(statements: [string, ...unknown[]][]): Promise<void>;
}

/** SQLite text, as Prisma's better-sqlite3 adapter writes DateTime ("2026-11-23T20:02:56.839+00:00"). */
const sqliteValue = (v: unknown) => (v instanceof Date ? v.toISOString().replace("Z", "+00:00") : typeof v === "boolean" ? Number(v) : v);

function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export function testDatabase(url: string): TestDatabase {
  if (url.startsWith("file:")) {
    const open = <T>(fn: (db: Database.Database) => T): T => {
      const db = new Database(url.slice("file:".length));
      try {
        return fn(db);
      } finally {
        db.close();
      }
    };
    return {
      provider: "sqlite",
      all: async (sql, ...params) => open((db) => db.prepare(sql).all(...params.map(sqliteValue))) as never,
      get: async (sql, ...params) => open((db) => db.prepare(sql).get(...params.map(sqliteValue))) as never,
      run: async (sql, ...params) => open((db) => db.prepare(sql).run(...params.map(sqliteValue)).changes),
      batch: async (statements) =>
        open((db) => db.transaction(() => statements.forEach(([sql, ...params]) => db.prepare(sql).run(...params.map(sqliteValue))))()),
    };
  }
  const open = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  return {
    provider: "postgresql",
    all: (sql, ...params) => open(async (c) => (await c.query(numbered(sql), params)).rows),
    get: (sql, ...params) => open(async (c) => (await c.query(numbered(sql), params)).rows[0]),
    run: (sql, ...params) => open(async (c) => (await c.query(numbered(sql), params)).rowCount ?? 0),
    batch: (statements) =>
      open(async (c) => {
        await c.query("BEGIN");
        try {
          for (const [sql, ...params] of statements) await c.query(numbered(sql), params);
          await c.query("COMMIT");
        } catch (err) {
          await c.query("ROLLBACK");
          throw err;
        }
      }),
  };
}

/**
 * A workspace member with a full-scope API token, written straight into the database (so a test
 * depends on nothing but the part it tests). Returns the token's secret.
 */
export async function insertMember(db: TestDatabase, m: { workspaceId: string; userId: string; name: string; email: string; role: string }): Promise<string> {
  const { hashToken, newToken } = await import("@/lib/core/crypto");
  const token = newToken("sb");
  const now = new Date();
  await db.batch([
    ['INSERT INTO "user" (id, name, email, email_verified, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', m.userId, m.name, m.email, false, now, now],
    ["INSERT INTO member (id, workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?, ?)", `m-${m.userId}`, m.workspaceId, m.userId, m.role, now],
    [
      "INSERT INTO api_token (id, workspace_id, user_id, name, prefix, token_hash, scope, created_at) VALUES (?, ?, ?, ?, ?, ?, 'full', ?)",
      `t-${m.userId}`, m.workspaceId, m.userId, "test", token.slice(0, 7), hashToken(token), now,
    ],
  ]);
  return token;
}
