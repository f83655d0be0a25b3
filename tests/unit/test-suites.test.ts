import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WITHOUT_DATABASE } from "../support/suites";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** tests/support's doors to a database: a suite that imports more than `waitFor` from them reaches one. */
const DATABASE_DOORS = ["tests/support/console.ts", "tests/support/database.ts", "tests/support/postgres.ts", "tests/support/migrated.ts"];
const DRIVERS = /^(@prisma\/|\.prisma\/|pg$|better-sqlite3$|@\/lib\/db(\/|$))/;

function resolve(from: string, spec: string): string | undefined {
  const base = spec.startsWith("@/") ? path.join(ROOT, spec.slice(2)) : spec.startsWith(".") ? path.resolve(path.dirname(from), spec) : undefined;
  if (!base) return undefined;
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
}

/** What keeps `file` from being on the no-database list: every way it reaches a database, followed through its imports. */
function databaseReach(file: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const visit = (current: string) => {
    if (seen.has(current)) return;
    seen.add(current);
    const name = path.relative(ROOT, current);
    const source = fs.readFileSync(current, "utf8");
    if (name.startsWith("tests/") && /DATABASE_URL|["'`]server\.ts["'`]/.test(source)) found.push(`${name} names DATABASE_URL or server.ts`);
    for (const m of source.matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s+["']([^"']+)["']/gm)) {
      if (m[1]) continue;
      const spec = m[3]!;
      if (DRIVERS.test(spec)) found.push(`${name} imports ${spec}`);
      const target = resolve(current, spec);
      if (!target) continue;
      const targetName = path.relative(ROOT, target);
      if (DATABASE_DOORS.includes(targetName)) {
        const names = m[2]!.replace(/[{}\s]/g, "").split(",").filter(Boolean);
        const others = names.filter((n) => n !== "waitFor");
        if (others.length) found.push(`${name} imports ${others.join(", ")} from ${targetName}`);
        continue;
      }
      visit(target);
    }
  };
  visit(file);
  return found;
}

describe("the integration suites the PostgreSQL pass leaves out (tests/support/suites.ts)", () => {
  it.each(WITHOUT_DATABASE)("%s reaches no database", (suite) => {
    expect(fs.existsSync(path.join(ROOT, suite)), `${suite} does not exist`).toBe(true);
    expect(databaseReach(path.join(ROOT, suite))).toEqual([]);
  });

  it("the check sees a suite that starts a console, and one that opens a database directly", () => {
    expect(databaseReach(path.join(ROOT, "tests/integration/api-auth.test.ts")).join("\n")).toMatch(/startConsole/);
    expect(databaseReach(path.join(ROOT, "tests/integration/cluster-channel.test.ts")).join("\n")).toMatch(/createTestPostgresDatabase/);
  });
});
