import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";

const MIGRATIONS = path.resolve(import.meta.dirname, "../../prisma/migrations");
const THIS = "20261202023500_interrupted_steps";

/** Applies the SQLite migrations in order, before or from `THIS`. */
function apply(db: Database.Database, which: "before" | "from"): void {
  for (const dir of fs.readdirSync(MIGRATIONS).filter((d) => /^\d{14}_/.test(d)).sort()) {
    if (which === "before" ? dir >= THIS : dir < THIS) continue;
    db.exec(fs.readFileSync(path.join(MIGRATIONS, dir, "migration.sql"), "utf8"));
  }
}

// A step the console stopped was an `error` whose message began with "interrupted"; it is now a status of its own.
describe("the interrupted-steps migration", () => {
  it("turns the old rows (an error starting with 'interrupted') into `interrupted`, and nothing else", () => {
    const db = new Database(":memory:");
    apply(db, "before");
    db.exec(`
      INSERT INTO "workspace" ("id", "name", "slug") VALUES ('w', 'W', 'w');
      INSERT INTO "collection" ("id", "workspace_id", "name", "steps", "updated_at") VALUES ('c', 'w', 'c', '[]', 0);
      INSERT INTO "collection_run" ("id", "workspace_id", "collection_id", "collection_name", "status", "origin") VALUES ('r', 'w', 'c', 'c', 'interrupted', 'api');`);
    const step = db.prepare(`INSERT INTO "collection_run_step" ("run_id", "index", "step_id", "label", "status", "error") VALUES ('r', ?, ?, 'l', ?, ?)`);
    step.run(0, "a", "error", "interrupted: the console's database failed: connection refused");
    step.run(1, "b", "error", "Request timed out after 1000 ms");
    step.run(2, "c", "failed", "interrupted by the server's own words");
    step.run(3, "d", "skipped", null);
    apply(db, "from");
    const rows = db.prepare(`SELECT "status", "error" FROM "collection_run_step" ORDER BY "index"`).all() as { status: string; error: string | null }[];
    expect(rows.map((r) => r.status)).toEqual(["interrupted", "error", "failed", "skipped"]);
    expect(rows[0]!.error).toMatch(/^interrupted: the console's database failed/);
    db.close();
  });
});
