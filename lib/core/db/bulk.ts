import type BetterSqlite3 from "better-sqlite3";
import { piece } from "@/lib/core/runtime";
import { driver } from "./client";

/** A table's columns for appendRows: [column name, key in the row]. */
export type Columns<R> = readonly (readonly [string, keyof R])[];

// PostgreSQL takes at most 65,535 parameters per statement.
const MAX_PARAMETERS = 60_000;

/**
 * Appends rows without Prisma's query layer, which costs more CPU than the write itself on the
 * hot paths (docs/architecture.md, "The call path"): a cached prepared statement in one
 * transaction on SQLite, multi-row INSERTs on PostgreSQL. Values as Prisma's adapters store them.
 */
export async function appendRows<R>(table: string, columns: Columns<R>, rows: R[]): Promise<void> {
  if (!rows.length) return;
  const d = await driver();
  const names = columns.map(([c]) => `"${c}"`).join(", ");
  if (d.kind === "sqlite") {
    const insertAll = sqliteInserter(d.db, `INSERT INTO "${table}" (${names}) VALUES (${columns.map(() => "?").join(", ")})`);
    await outsideTransaction(d.db);
    insertAll(rows.map((row) => columns.map(([, key]) => sqliteValue(row[key]))));
    return;
  }
  const per = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  for (let at = 0; at < rows.length; at += per) {
    const group = rows.slice(at, at + per);
    await d.pool.query({
      text: `INSERT INTO "${table}" (${names}) VALUES ${placeholders(group.length, columns.length)}`,
      values: group.flatMap((row) => columns.map(([, key]) => postgresValue(row[key]))),
    });
  }
}

const inserters = () => piece("bulkInserters", () => new WeakMap<BetterSqlite3.Database, Map<string, (rows: unknown[][]) => void>>());

function sqliteInserter(db: BetterSqlite3.Database, text: string): (rows: unknown[][]) => void {
  let byText = inserters().get(db);
  if (!byText) inserters().set(db, (byText = new Map()));
  let insertAll = byText.get(text);
  if (!insertAll) {
    const statement = db.prepare(text);
    insertAll = db.transaction((rows: unknown[][]) => {
      for (const values of rows) statement.run(values);
    });
    byText.set(text, insertAll);
  }
  return insertAll;
}

/** `($1, $2), ($3, $4)` for rows × columns parameters. */
export function placeholders(rows: number, columns: number): string {
  return Array.from({ length: rows }, (_, r) => `(${Array.from({ length: columns }, (_, c) => `$${r * columns + c + 1}`).join(", ")})`).join(", ");
}

/**
 * The connection is Prisma's: a statement run while one of its interactive transactions is open
 * would join that transaction (and vanish with a rollback). Those transactions are a few
 * statements long; wait them out.
 */
export async function outsideTransaction(db: BetterSqlite3.Database): Promise<void> {
  for (let turns = 0; db.inTransaction && turns < 10_000; turns++) await new Promise((resolve) => setImmediate(resolve));
}

/** As Prisma's SQLite adapter stores them: booleans as 0/1, dates as ISO 8601 with an explicit offset. */
export function sqliteValue(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
  return value;
}

/** The columns are `timestamp(3)` holding UTC, as Prisma writes them; pg would send local time. */
export function postgresValue(value: unknown): unknown {
  return value instanceof Date ? value.toISOString().replace("Z", "") : value;
}
