import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { optimizeSqlite } from "@/lib/db/sqlite";

describe("optimizeSqlite", () => {
  it("gathers planner statistics for a table filled outside this connection and never analysed", async () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE call (workspace_id TEXT, status TEXT, started_at TEXT); CREATE INDEX call_ws_status ON call (workspace_id, status, started_at)");
    const insert = db.prepare("INSERT INTO call VALUES (?, ?, ?)");
    db.transaction(() => {
      for (let i = 0; i < 20_000; i++) insert.run("w", i % 13 === 0 ? "error" : "ok", String(i));
    })();
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'").get()).toBeUndefined();

    await optimizeSqlite({ $queryRawUnsafe: async (sql: string) => db.prepare(sql).all() });

    const stat = db.prepare("SELECT stat FROM sqlite_stat1 WHERE idx = 'call_ws_status'").get() as { stat: string } | undefined;
    expect(stat?.stat.split(" ")[0]).toBe("20000");
  });
});
