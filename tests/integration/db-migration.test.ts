import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createTestPostgresDatabase } from "../support/postgres";

const ROOT = path.resolve(import.meta.dirname, "../..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sb-db-migration-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** What of the repository's prisma/ folder the script could have touched. */
function repoState(): string {
  const list = (dir: string) => fs.readdirSync(path.join(ROOT, dir)).sort().join(",");
  return [list("prisma/migrations"), list("prisma/postgres/migrations"), fs.readFileSync(path.join(ROOT, "prisma/postgres/schema.prisma"), "utf8")].join("\n");
}

function migrationsIn(dir: string): string[] {
  return fs.readdirSync(dir).filter((d) => /^\d{14}_/.test(d)).sort().map((d) => fs.readFileSync(path.join(dir, d, "migration.sql"), "utf8"));
}

describe("npm run db:migration NAME", () => {
  it("writes both databases' migrations for a column added to the schema, and they apply after all the others", async () => {
    const root = path.join(tmp, "copy");
    fs.cpSync(path.join(ROOT, "prisma"), path.join(root, "prisma"), { recursive: true });
    const before = path.join(tmp, "before.prisma");
    fs.copyFileSync(path.join(ROOT, "prisma/schema.prisma"), before);
    const schema = fs.readFileSync(before, "utf8");
    const edited = schema.replace(/^(model Call \{\n)/m, '$1  throwawayFlavour String? @map("throwaway_flavour")\n');
    expect(edited).not.toBe(schema);
    fs.writeFileSync(path.join(root, "prisma/schema.prisma"), edited);
    const repoBefore = repoState();

    // On the PostgreSQL pass its loopback server answers Prisma; otherwise the script starts its own.
    const postgresUrl = process.env.SWITCHBOARD_TEST_POSTGRES_URL;
    const env = { ...process.env, DATABASE_URL: postgresUrl ?? "" };
    const out = execFileSync(process.execPath, ["--import", "tsx", "scripts/db-migration.ts", "throwaway_flavour", "--root", root, "--from", before], { cwd: ROOT, env, encoding: "utf8" });

    const written = [...out.matchAll(/^wrote (\S+)$/gm)].map((m) => m[1]!);
    expect(written).toEqual([expect.stringMatching(/^prisma\/migrations\/\d{14}_throwaway_flavour\/migration\.sql$/), expect.stringMatching(/^prisma\/postgres\/migrations\/\d{14}_throwaway_flavour\/migration\.sql$/)]);
    expect(fs.readFileSync(path.join(root, written[0]!), "utf8")).toMatch(/ALTER TABLE "call" ADD COLUMN "throwaway_flavour" TEXT;/);
    expect(fs.readFileSync(path.join(root, written[1]!), "utf8")).toMatch(/ALTER TABLE "call" ADD COLUMN\s+"throwaway_flavour" TEXT;/);
    expect(fs.readFileSync(path.join(root, "prisma/postgres/schema.prisma"), "utf8")).toContain('throwawayFlavour String? @map("throwaway_flavour")');
    expect(repoState()).toBe(repoBefore);

    // SQLite: every migration in order on a fresh file; the history search triggers survive.
    const db = new Database(path.join(tmp, "applied.db"));
    for (const sql of migrationsIn(path.join(root, "prisma/migrations"))) db.exec(sql);
    expect((db.prepare(`PRAGMA table_info("call")`).all() as { name: string }[]).map((c) => c.name)).toContain("throwaway_flavour");
    expect((db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'call'`).get() as { n: number }).n).toBeGreaterThan(0);
    db.close();

    if (!postgresUrl) return;
    const client = new pg.Client({ connectionString: await createTestPostgresDatabase(`db_migration_${Date.now()}`) });
    await client.connect();
    try {
      for (const sql of migrationsIn(path.join(root, "prisma/postgres/migrations"))) await client.query(sql);
      const { rows } = await client.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'call' AND column_name = 'throwaway_flavour'`);
      expect(rows).toHaveLength(1);
    } finally {
      await client.end();
    }
  }, 180_000);

  it("refuses a schema that did not change, writing nothing", () => {
    const root = path.join(tmp, "unchanged");
    fs.cpSync(path.join(ROOT, "prisma"), path.join(root, "prisma"), { recursive: true });
    const count = () => fs.readdirSync(path.join(root, "prisma/migrations")).length + fs.readdirSync(path.join(root, "prisma/postgres/migrations")).length;
    const before = count();
    const env = { ...process.env, DATABASE_URL: process.env.SWITCHBOARD_TEST_POSTGRES_URL ?? "" };
    let failure = "";
    try {
      execFileSync(process.execPath, ["--import", "tsx", "scripts/db-migration.ts", "nothing_new", "--root", root, "--from", path.join(ROOT, "prisma/schema.prisma")], { cwd: ROOT, env, encoding: "utf8", stdio: "pipe" });
    } catch (err) {
      failure = String((err as { stderr: string }).stderr);
    }
    expect(failure).toMatch(/does not differ/);
    expect(count()).toBe(before);
  });
});
