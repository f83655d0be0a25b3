import type BetterSqlite3 from "better-sqlite3";
import type pg from "pg";
import { outsideTransaction, placeholders, postgresValue, sqliteValue } from "@/lib/core/db/bulk";
import type { Driver } from "@/lib/core/db/client";
import { CALL_COLUMNS, type CallField, type ColumnType } from "./columns";

/** Values of some of a call's fields, by field. */
type Row = { readonly [F in CallField]?: unknown };

/**
 * The journal's statements in one SQL dialect, built from the column descriptor (./columns.ts):
 * prepared once, each write a batch of rows in one statement (PostgreSQL) or one transaction (SQLite).
 */
export interface Dialect {
  insert(label: string, fields: readonly CallField[]): (rows: Row[]) => Promise<void>;
  /** Sets `fields` of each row, found by id. */
  update(label: string, fields: readonly CallField[]): (rows: (readonly [string, Row])[]) => Promise<void>;
  /** One statement with `?` placeholders: how many rows it changed and what it returned. */
  run(text: string, values: unknown[]): Promise<{ changes: number; rows: Record<string, unknown>[] }>;
}

/** `"column_name"` of a field. */
export function col(field: CallField): string {
  return `"${CALL_COLUMNS[field].column}"`;
}

const names = (fields: readonly CallField[]) => fields.map(col).join(", ");

export function dialectOf(d: Driver): Dialect {
  return d.kind === "sqlite" ? sqlite(d.db) : postgres(d.pool);
}

function sqlite(db: BetterSqlite3.Database): Dialect {
  const turn = writesThisTurn();
  const batch = <T>(text: string, values: (row: T) => unknown[]) => {
    const statement = db.prepare(text);
    const all = db.transaction((rows: T[]) => {
      for (const row of rows) statement.run(values(row));
    });
    return async (rows: T[]) => {
      // better-sqlite3 is synchronous. The first write of a turn of the loop commits at once (one
      // call at a time waits for no turn); later ones wait for the next turn, gathering what
      // arrives meanwhile into one commit (group commit under load).
      if (!turn.first() || db.inTransaction) {
        await turn.next();
        await outsideTransaction(db);
      }
      all(rows);
    };
  };
  return {
    insert: (_label, fields) =>
      batch<Row>(`INSERT INTO "call" (${names(fields)}) VALUES (${fields.map(() => "?").join(", ")})`, (row) => fields.map((f) => sqliteValue(row[f]))),
    update: (_label, fields) =>
      batch<readonly [string, Row]>(`UPDATE "call" SET ${fields.map((f) => `${col(f)} = ?`).join(", ")} WHERE ${col("id")} = ?`, ([id, row]) => [
        ...fields.map((f) => sqliteValue(row[f])),
        id,
      ]),
    async run(text, values) {
      await outsideTransaction(db);
      const statement = db.prepare(text);
      const params = values.map(sqliteValue);
      if (statement.reader) {
        const rows = statement.all(params) as Record<string, unknown>[];
        return { changes: rows.length, rows };
      }
      return { changes: statement.run(params).changes, rows: [] };
    },
  };
}

/** Whether a write ran already in this turn of the event loop; `next` waits for the next turn. */
function writesThisTurn(): { first(): boolean; next(): Promise<void> } {
  let wrote = false;
  return {
    first() {
      if (wrote) return false;
      wrote = true;
      setImmediate(() => (wrote = false));
      return true;
    },
    next: () => new Promise<void>((resolve) => setImmediate(resolve)),
  };
}

// VALUES hands every parameter over as text: an UPDATE from it casts each column back to its type.
const CASTS: Record<ColumnType, string> = { text: "", integer: "::integer", double: "::double precision", boolean: "::boolean", timestamp: "::timestamp(3)" };

function postgres(pool: pg.Pool): Dialect {
  return {
    insert: (label, fields) => async (rows) => {
      await pool.query({
        name: `call-journal-${label}-${rows.length}`,
        text: `INSERT INTO "call" (${names(fields)}) VALUES ${placeholders(rows.length, fields.length)}`,
        values: rows.flatMap((row) => fields.map((f) => postgresValue(row[f]))),
      });
    },
    update: (label, fields) => async (rows) => {
      const all: CallField[] = ["id", ...fields];
      await pool.query({
        name: `call-journal-${label}-${rows.length}`,
        text: `UPDATE "call" AS c SET ${fields.map((f) => `${col(f)} = v.${col(f)}${CASTS[CALL_COLUMNS[f].type]}`).join(", ")}
          FROM (VALUES ${placeholders(rows.length, all.length)}) AS v(${names(all)}) WHERE c.${col("id")} = v.${col("id")}`,
        values: rows.flatMap(([id, row]) => [id, ...fields.map((f) => postgresValue(row[f]))]),
      });
    },
    async run(text, values) {
      let n = 0;
      const result = await pool.query(text.replace(/\?/g, () => `$${++n}`), values.map(postgresValue));
      return { changes: result.rowCount ?? 0, rows: result.rows as Record<string, unknown>[] };
    },
  };
}

// At most this many rows in one statement (and one prepared statement per size up to it).
const MAX_GROUP = 64;

/**
 * Group commit: what arrives while a write is in flight goes out together in the next one, so
 * under load many calls share one commit and at one call at a time nothing waits. When a group
 * fails, each of its rows is tried alone: one bad row fails only its own call.
 */
export function grouped<T>(write: (items: T[]) => Promise<void>): (item: T) => Promise<void> {
  const queue: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];
  let busy = false;
  const drain = async () => {
    busy = true;
    while (queue.length) {
      const group = queue.splice(0, MAX_GROUP);
      try {
        await write(group.map((g) => g.item));
        for (const g of group) g.resolve();
      } catch (err) {
        if (group.length === 1) group[0]!.reject(err);
        else for (const g of group) await write([g.item]).then(g.resolve, g.reject);
      }
    }
    busy = false;
  };
  return (item) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!busy) void drain();
    });
}

/**
 * Updates grouped by id: two updates of one row in a group go out one after the other (PostgreSQL
 * would apply one of them, either, from a single UPDATE … FROM VALUES).
 */
export function groupedById(write: (rows: (readonly [string, Row])[]) => Promise<void>): (id: string, row: Row) => Promise<void> {
  const put = grouped(async (rows: (readonly [string, Row])[]) => {
    let from = 0;
    const seen = new Set<string>();
    for (let i = 0; i <= rows.length; i++) {
      if (i < rows.length && !seen.has(rows[i]![0])) {
        seen.add(rows[i]![0]);
        continue;
      }
      if (i > from) await write(rows.slice(from, i));
      from = i;
      seen.clear();
      if (i < rows.length) seen.add(rows[i]![0]);
    }
  });
  return (id, row) => put([id, row]);
}
