/**
 * `npm run db:migration NAME`: after editing the models in prisma/schema.prisma, writes the
 * PostgreSQL schema (as db:schema does) and one migration per database, under one timestamp:
 * prisma/migrations/<ts>_NAME and prisma/postgres/migrations/<ts>_NAME. Each is Prisma's
 * `migrate diff` between the schema before (the committed one, or `--from FILE`) and after.
 * Prisma's JS schema engine connects even to diff two files: SQLite gets a throwaway file, and
 * PostgreSQL the server in DATABASE_URL when it names one, else a throwaway loopback server
 * (tests/support/postgres.ts). Nothing is written to either. Then both clients are generated.
 * `--root DIR` works on another copy (and generates nothing).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { postgresSchema } from "./db-schema";

const REPO = path.resolve(import.meta.dirname, "..");

/** The folder name of a migration made at `now`: Prisma's UTC timestamp, then the name. */
export function migrationDirName(name: string, now: Date): string {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`A migration name is snake_case (got "${name}")`);
  return `${now.toISOString().replace(/\D/g, "").slice(0, 14)}_${name}`;
}

/** True when a script Prisma wrote holds no statement (it says "-- This is an empty migration."). */
export function isEmptyMigration(sql: string): boolean {
  return !sql.split("\n").some((line) => line.trim() && !line.trim().startsWith("--"));
}

/** Tables a SQLite script rebuilds (Prisma's RedefineTables: CREATE TABLE "new_x", copy, drop, rename). */
export function rebuiltTables(sql: string): string[] {
  return [...sql.matchAll(/CREATE TABLE "new_(\w+)"/g)].map((m) => m[1]!);
}

/** Tables with triggers written by hand in earlier migrations: a rebuild drops them silently. */
export function tablesWithTriggers(migrationsDir: string): Set<string> {
  const out = new Set<string>();
  for (const dir of fs.existsSync(migrationsDir) ? fs.readdirSync(migrationsDir) : []) {
    const file = path.join(migrationsDir, dir, "migration.sql");
    if (!fs.existsSync(file)) continue;
    for (const m of fs.readFileSync(file, "utf8").matchAll(/CREATE TRIGGER[\s\S]*?\bON\s+"?(\w+)"?/gi)) out.add(m[1]!);
  }
  return out;
}

function diff(from: string, to: string, databaseUrl: string): string {
  const cli = path.join(REPO, "node_modules/prisma/build/index.js");
  const args = [cli, "migrate", "diff", "--config", path.join(REPO, "prisma.config.ts"), "--from-schema-datamodel", from, "--to-schema-datamodel", to, "--script"];
  return execFileSync(process.execPath, args, { cwd: REPO, env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function latest(migrationsDir: string): string {
  return fs.readdirSync(migrationsDir).filter((d) => /^\d{14}_/.test(d)).sort().at(-1) ?? "";
}

export interface MigrationOptions {
  name: string;
  root?: string;
  /** The schema before the change; the committed prisma/schema.prisma by default. */
  from?: string;
  now?: Date;
  log?: (line: string) => void;
}

/** Writes the migrations; returns the folders written (relative to the root). */
export async function writeMigrations({ name, root = REPO, from, now = new Date(), log = console.log }: MigrationOptions): Promise<string[]> {
  const sqliteSchema = path.join(root, "prisma/schema.prisma");
  const after = fs.readFileSync(sqliteSchema, "utf8");
  const before = from ? fs.readFileSync(from, "utf8") : execFileSync("git", ["show", "HEAD:prisma/schema.prisma"], { cwd: root, encoding: "utf8" });
  if (before === after) throw new Error("prisma/schema.prisma does not differ from the schema before: no migration to write");
  fs.writeFileSync(path.join(root, "prisma/postgres/schema.prisma"), postgresSchema(after));

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sb-migration-"));
  let server: { url(): string; stop(): Promise<void> } | null = null;
  try {
    const files = (label: string, before: string, after: string) => {
      fs.writeFileSync(path.join(tmp, `${label}-before.prisma`), before);
      fs.writeFileSync(path.join(tmp, `${label}-after.prisma`), after);
      return [path.join(tmp, `${label}-before.prisma`), path.join(tmp, `${label}-after.prisma`)] as const;
    };
    const sqlite = diff(...files("sqlite", before, after), `file:${path.join(tmp, "diff.db")}`);
    let postgresUrl = process.env.DATABASE_URL;
    if (!postgresUrl || !/^postgres(ql)?:\/\//.test(postgresUrl)) {
      const { startPostgres } = await import("../tests/support/postgres");
      server = await startPostgres();
      postgresUrl = server.url();
    }
    const postgres = diff(...files("postgres", postgresSchema(before), postgresSchema(after)), postgresUrl);

    const dirName = migrationDirName(name, now);
    const written: string[] = [];
    for (const [dir, sql] of [["prisma/migrations", sqlite], ["prisma/postgres/migrations", postgres]] as const) {
      if (isEmptyMigration(sql)) continue;
      const migrations = path.join(root, dir);
      if (latest(migrations) >= dirName) throw new Error(`${dir} already has ${latest(migrations)}, not older than ${dirName}`);
      fs.mkdirSync(path.join(migrations, dirName));
      fs.writeFileSync(path.join(migrations, dirName, "migration.sql"), sql);
      written.push(path.join(dir, dirName));
    }
    if (!written.length) throw new Error("The schema change needs no SQL (comments, say): no migration to write");
    const lost = rebuiltTables(sqlite).filter((t) => tablesWithTriggers(path.join(root, "prisma/migrations")).has(t));
    if (lost.length) {
      log(`WARNING: the SQLite migration rebuilds ${lost.map((t) => `"${t}"`).join(", ")}, which drops the triggers earlier migrations put on it (the history search index on "call"): write that change as ALTER TABLE by hand, or recreate the triggers at its end.`);
    }
    for (const dir of written) log(`wrote ${dir}/migration.sql`);
    return written;
  } finally {
    await server?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const args = process.argv.slice(2);
  const option = (flag: string) => {
    const at = args.indexOf(flag);
    return at < 0 ? undefined : args.splice(at, 2)[1];
  };
  const root = option("--root");
  const from = option("--from");
  const [name, ...rest] = args;
  if (!name || rest.length) {
    console.error("usage: npm run db:migration NAME [-- --from SCHEMA_BEFORE] [--root DIR]");
    process.exit(2);
  }
  writeMigrations({ name, root: root && path.resolve(root), from: from && path.resolve(from) }).then(
    () => {
      // The clients' types then hold the change (lib/domains/calls/columns.ts fails to compile without a new call column).
      if (!root) execFileSync("bash", [path.join(REPO, "scripts/db-generate.sh")], { stdio: "inherit" });
      process.exit(0);
    },
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
