import fs from "node:fs";
import path from "node:path";
// Relative: prisma.config.ts loads this file without the project's path aliases.
import { config } from "../config";

/** True for a PostgreSQL connection string (postgres:// or postgresql://). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The database URL in use: DATABASE_URL, or the SQLite file ./data/switchboard.db (directory created on demand). */
export function databaseUrl(): string {
  const fromEnv = config().databaseUrl;
  if (fromEnv) return fromEnv;
  const dir = path.resolve(process.cwd(), "data");
  fs.mkdirSync(dir, { recursive: true });
  return `file:${path.join(dir, "switchboard.db")}`;
}

/**
 * The database holds hashed tokens and encrypted secrets: only the console's user may read it.
 * New files are created 0600 / directories 0700 (umask), and a SQLite file made earlier by
 * someone else's umask (e.g. `prisma migrate deploy`) is tightened with its WAL files.
 */
export function secureDataFiles(): void {
  process.umask(0o077);
  const url = databaseUrl();
  if (!url.startsWith("file:")) return;
  const file = path.resolve(process.cwd(), url.slice("file:".length));
  for (const candidate of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    if (fs.existsSync(candidate)) fs.chmodSync(candidate, 0o600);
  }
  const dir = path.dirname(file);
  if (dir === path.resolve(process.cwd(), "data")) fs.chmodSync(dir, 0o700);
}
