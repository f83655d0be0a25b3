import type BetterSqlite3 from "better-sqlite3";
import { outsideTransaction, postgresValue, sqliteValue } from "@/lib/core/db/bulk";
import { driver, type Driver } from "@/lib/core/db/client";

/** What every view of a link checks: whether it exists, is gone, and with which redaction list it is built. */
export interface ShareCheck {
  id: string;
  revoked: boolean;
  /** ISO 8601, UTC. */
  expiresAt: string | null;
  sharesEnabled: boolean;
  redactionKeys: string | null;
}

export interface Statements {
  check(tokenHash: string): Promise<ShareCheck | null>;
  countView(id: string, at: Date): Promise<void>;
}

const FROM = `FROM "share" s JOIN "workspace" w ON w."id" = s."workspace_id" WHERE s."token_hash" = ?`;
const COUNT = `UPDATE "share" SET "view_count" = "view_count" + 1, "last_viewed_at" = ? WHERE "id" = ?`;

type Row = { id: string; revoked: unknown; expires_at: string | null; enabled: unknown; redaction_keys: string | null };
const toCheck = (row: Row): ShareCheck => ({
  id: row.id,
  revoked: !!Number(row.revoked),
  expiresAt: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
  sharesEnabled: row.enabled === true || Number(row.enabled) === 1,
  redactionKeys: row.redaction_keys,
});

/**
 * The two statements of a link's view on the driver under Prisma, prepared once: a page view is
 * the hottest public read, and Prisma 6 compiles every query anew (in its Wasm query compiler).
 * On SQLite both run synchronously, so a view waits for no other request.
 */
function statementsOf(d: Driver): Statements {
  if (d.kind === "sqlite") return sqliteStatements(d.db);
  const pool = d.pool;
  const text = `SELECT s."id", s."revoked_at" IS NOT NULL AS revoked, to_char(s."expires_at", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at,
    w."public_shares_enabled" AS enabled, w."redaction_keys" ${FROM.replace("?", "$1")}`;
  return {
    async check(tokenHash) {
      const { rows } = await pool.query<Row>({ name: "share-view-check", text, values: [tokenHash] });
      return rows[0] ? toCheck(rows[0]) : null;
    },
    async countView(id, at) {
      await pool.query({ name: "share-view-count", text: COUNT.replace("?", "$1").replace("?", "$2"), values: [postgresValue(at), id] });
    },
  };
}

function sqliteStatements(db: BetterSqlite3.Database): Statements {
  const check = db.prepare<[string], Row>(
    `SELECT s."id", s."revoked_at" IS NOT NULL AS revoked, s."expires_at", w."public_shares_enabled" AS enabled, w."redaction_keys" ${FROM}`,
  );
  const count = db.prepare<[unknown, string]>(COUNT);
  return {
    async check(tokenHash) {
      await outsideTransaction(db);
      const row = check.get(tokenHash);
      return row ? toCheck(row) : null;
    },
    async countView(id, at) {
      await outsideTransaction(db);
      count.run(sqliteValue(at), id);
    },
  };
}

/** The statements for the process's connection, kept in `slot` (prepared again if the connection changed). */
export async function shareStatements(slot: { prepared?: { driver: Driver; statements: Statements } }): Promise<Statements> {
  const d = await driver();
  const was = slot.prepared?.driver;
  const same = was?.kind === "sqlite" ? d.kind === "sqlite" && was.db === d.db : was?.kind === "postgresql" && d.kind === "postgresql" && was.pool === d.pool;
  if (!same || !slot.prepared) slot.prepared = { driver: d, statements: statementsOf(d) };
  return slot.prepared.statements;
}
