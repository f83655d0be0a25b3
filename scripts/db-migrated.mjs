// Exits 0 when the database at DATABASE_URL (or ./data/switchboard.db) has every migration of this
// tree applied, as `prisma migrate deploy` leaves it: each migration's name recorded finished, not
// rolled back, with the checksum of its migration.sql, and no migration failed half-way. Exits 1
// otherwise, and whenever it cannot tell (no file, no table, no connection): then scripts/start.sh
// runs `prisma migrate deploy`, which migrates or says what is wrong. Asking the database itself
// (about 0.1 s) rather than keeping a stamp means a database replaced by a fresh or older one is
// migrated all the same.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const url = process.env.DATABASE_URL || `file:${path.resolve("data/switchboard.db")}`;
const postgres = /^postgres(ql)?:\/\//i.test(url);
const dir = postgres ? "prisma/postgres/migrations" : "prisma/migrations";
const local = fs
  .readdirSync(dir, { withFileTypes: true })
  .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, "migration.sql")))
  .map((e) => ({ name: e.name, checksum: crypto.createHash("sha256").update(fs.readFileSync(path.join(dir, e.name, "migration.sql"))).digest("hex") }));

/** The rows of _prisma_migrations. */
async function applied() {
  const query = "SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations";
  if (!postgres) {
    const file = path.resolve(url.slice("file:".length).split("?")[0]);
    if (!fs.existsSync(file)) return [];
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(query).all();
    } finally {
      db.close();
    }
  }
  const { default: pg } = await import("pg");
  const schema = new URL(url).searchParams.get("schema");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    if (schema) await client.query(`SET search_path TO "${schema.replaceAll('"', '""')}"`);
    return (await client.query(query)).rows;
  } finally {
    await client.end();
  }
}

const rows = await applied().catch(() => []);
const done = new Map(rows.filter((r) => r.finished_at && !r.rolled_back_at).map((r) => [r.migration_name, r.checksum]));
const failed = rows.some((r) => !r.finished_at && !r.rolled_back_at);
process.exitCode = !failed && local.every((m) => done.get(m.name) === m.checksum) ? 0 : 1;
