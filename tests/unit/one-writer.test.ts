import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * One writer per table (docs/architecture.md): each table that matters is written only by its
 * owner's files; whoever else needs a write gets the owner's statement (lib/start hands them
 * over where the owner sits above the one that needs it). Add a table here with its owner files.
 */
const WRITERS: { table: string; model: string; owners: string[] }[] = [
  { table: "call", model: "call", owners: ["lib/domains/calls/journal.ts", "lib/domains/calls/journal-sql.ts", "lib/domains/calls/queries.ts"] },
  { table: "collection_run", model: "collectionRun", owners: ["lib/domains/collections/queries.ts"] },
  { table: "collection_run_step", model: "collectionRunStep", owners: ["lib/domains/collections/queries.ts"] },
  { table: "alert_seen", model: "alertSeen", owners: ["lib/watch/alerts/queries.ts"] },
  { table: "gateway_connection", model: "gatewayConnection", owners: ["lib/gateway/queries.ts"] },
  { table: "member", model: "member", owners: ["lib/team/members/queries.ts"] },
];

/** Where the console's code lives (tests and fixtures write their own rows on purpose). */
const SOURCES = ["lib", "app", "scripts", "cli", "agent", "server.ts"];

const PRISMA_WRITES = "create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany";

function sourceFiles(): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      if (e.name === "node_modules" || e.name.startsWith(".")) return [];
      const full = path.join(dir, e.name);
      return e.isDirectory() ? walk(full) : /\.(ts|tsx|mts|mjs|js)$/.test(e.name) ? [full] : [];
    });
  return SOURCES.map((s) => path.join(ROOT, s))
    .filter((p) => fs.existsSync(p))
    .flatMap((p) => (fs.statSync(p).isDirectory() ? walk(p) : [p]))
    .filter((f) => !f.endsWith(".generated.ts"));
}

/** Each write to `table` in `source`: a Prisma write on its model (any client or transaction), or SQL that inserts, updates or deletes its rows. */
function writesIn(source: string, { table, model }: { table: string; model: string }): string[] {
  const prisma = new RegExp(`\\.${model}\\s*\\.\\s*(?:${PRISMA_WRITES})\\s*\\(`, "g");
  const raw = new RegExp(`(?:INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+"?${table}"?(?![\\w"])`, "g");
  return [...source.matchAll(prisma), ...source.matchAll(raw)].map((m) => m[0].replace(/\s+/g, " "));
}

describe("one writer per table", () => {
  const files = sourceFiles().map((file) => ({ file: path.relative(ROOT, file), source: fs.readFileSync(file, "utf8") }));

  it.each(WRITERS)("$table is written only by its owner ($owners)", (writer) => {
    const outside = files.filter((f) => !writer.owners.includes(f.file)).flatMap((f) => writesIn(f.source, writer).map((w) => `${f.file}: ${w}`));
    expect(outside).toEqual([]);
  });

  it.each(WRITERS)("finds $table's writes in its owner's files (the check sees what it looks for)", (writer) => {
    const found = files.filter((f) => writer.owners.includes(f.file)).flatMap((f) => writesIn(f.source, writer));
    expect(found.length).toBeGreaterThan(0);
  });

  it("recognises each kind of write, and nothing that only reads or names a longer table", () => {
    const call = { table: "call", model: "call" };
    expect(writesIn('prisma.call.deleteMany({ where })', call)).toHaveLength(1);
    expect(writesIn("tx.call\n  .update({ where })", call)).toHaveLength(1);
    expect(writesIn('`INSERT INTO "call" (id) VALUES (?)`', call)).toHaveLength(1);
    expect(writesIn("`UPDATE call SET status = 'x'`", call)).toHaveLength(1);
    expect(writesIn('`DELETE FROM "call" WHERE id = ?`', call)).toHaveLength(1);
    expect(writesIn("prisma.call.findMany({}); prisma.callRollup.deleteMany({}); `INSERT INTO call_rollup (x)`; `UPDATE \"call_rollup\" SET`", call)).toEqual([]);
  });
});
