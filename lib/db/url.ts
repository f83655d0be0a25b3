import fs from "node:fs";
import path from "node:path";

/** The SQLite URL in use: DATABASE_URL, or ./data/switchboard.db (directory created on demand). */
export function databaseUrl(): string {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) return fromEnv;
  const dir = path.resolve(process.cwd(), "data");
  fs.mkdirSync(dir, { recursive: true });
  return `file:${path.join(dir, "switchboard.db")}`;
}
