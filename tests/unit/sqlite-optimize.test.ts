import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { optimizeSqlite } from "@/lib/core/db/sqlite";

describe("optimizeSqlite", () => {
  it("leaves a file with no table empty: Migrate would refuse one holding only statistics (P3005)", async () => {
    const db = new Database(":memory:");
    await optimizeSqlite({ $queryRawUnsafe: async (sql: string) => db.prepare(sql).all(), $executeRawUnsafe: async (sql: string) => db.prepare(sql).run().changes });
    expect(db.prepare("SELECT name FROM sqlite_master").all()).toEqual([]);
  });

  it("gathers planner statistics for a table filled outside this connection and never analysed", async () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE call (workspace_id TEXT, status TEXT, started_at TEXT); CREATE INDEX call_ws_status ON call (workspace_id, status, started_at)");
    const insert = db.prepare("INSERT INTO call VALUES (?, ?, ?)");
    db.transaction(() => {
      for (let i = 0; i < 20_000; i++) insert.run("w", i % 13 === 0 ? "error" : "ok", String(i));
    })();
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'").get()).toBeUndefined();

    await optimizeSqlite({ $queryRawUnsafe: async (sql: string) => db.prepare(sql).all(), $executeRawUnsafe: async (sql: string) => db.prepare(sql).run().changes });

    const stat = db.prepare("SELECT stat FROM sqlite_stat1 WHERE idx = 'call_ws_status'").get() as { stat: string } | undefined;
    expect(stat?.stat.split(" ")[0]).toBe("20000");
  });

  it("makes an open connection plan with statistics another connection gathered", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-optimize-")), "db.sqlite");
    const consoleDb = new Database(file);
    consoleDb.pragma("journal_mode = WAL");
    consoleDb.exec("CREATE TABLE t (a, b); CREATE INDEX t_a ON t (a); CREATE INDEX t_b ON t (b)");
    const run = { $queryRawUnsafe: async (sql: string) => consoleDb.prepare(sql).all(), $executeRawUnsafe: async (sql: string) => consoleDb.prepare(sql).run().changes };
    await optimizeSqlite(run);
    const plan = () => (consoleDb.prepare("EXPLAIN QUERY PLAN SELECT * FROM t WHERE a = 1 AND b = 2").all() as { detail: string }[]).map((r) => r.detail).join();
    // Without statistics SQLite takes the last index; b has two values, a is unique.
    expect(plan()).toContain("t_b");

    const importer = new Database(file);
    const insert = importer.prepare("INSERT INTO t VALUES (?, ?)");
    importer.transaction(() => {
      for (let i = 0; i < 20_000; i++) insert.run(i, i % 2);
    })();
    importer.pragma("analysis_limit = 1000");
    importer.pragma("optimize = 0x10002");
    importer.close();
    expect(plan()).toContain("t_b");

    await optimizeSqlite(run);
    expect(plan()).toContain("t_a");
    consoleDb.close();
  });

  it("sizes the search index's blocks for the planner as large, so FTS5 deletes merged segments by rowid at any size", async () => {
    const db = new Database(":memory:");
    db.exec(`CREATE TABLE call (params TEXT, result TEXT, error TEXT);
      CREATE VIRTUAL TABLE call_search USING fts5(params, result, error, content='call', tokenize='trigram case_sensitive 0')`);
    const run = { $queryRawUnsafe: async (sql: string) => db.prepare(sql).all(), $executeRawUnsafe: async (sql: string) => db.prepare(sql).run().changes };
    const plan = () => (db.prepare("EXPLAIN QUERY PLAN SELECT block FROM call_search_data WHERE id >= 5 AND id <= 9").all() as { detail: string }[]).map((r) => r.detail).join();
    db.exec("CREATE TABLE other (a); INSERT INTO other VALUES (1)");

    // Analysed while empty (2 rows of its own), the table reads as tiny, and a range becomes a scan
    // (FTS5 deletes merged segments by such a range; the same plan shows on a SELECT).
    db.pragma("optimize = 0x10002");
    expect(db.prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'call_search_data'").pluck().get()).toBe("2");
    db.exec("ANALYZE sqlite_schema");
    expect(plan()).toMatch(/^SCAN/);

    await optimizeSqlite(run);
    expect(db.prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'call_search_data'").pluck().all()).toEqual(["1000000"]);
    expect(db.prepare("SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'other'").pluck().get()).toBe(1);
    expect(plan()).toMatch(/^SEARCH call_search_data USING INTEGER PRIMARY KEY/);
  });
});
