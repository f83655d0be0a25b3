import path from "node:path";
import { describe, expect, it } from "vitest";
import { isEmptyMigration, migrationDirName, rebuiltTables, tablesWithTriggers } from "@/scripts/db-migration";

describe("npm run db:migration (its pure parts; tests/integration/db-migration.test.ts runs it)", () => {
  it("names the folder by Prisma's UTC timestamp and a snake_case name", () => {
    expect(migrationDirName("call_flavour", new Date("2026-11-27T09:05:03.120Z"))).toBe("20261127090503_call_flavour");
    expect(() => migrationDirName("Call-Flavour", new Date())).toThrow(/snake_case/);
  });

  it("tells an empty diff from one with statements", () => {
    expect(isEmptyMigration("-- This is an empty migration.\n\n")).toBe(true);
    expect(isEmptyMigration('-- AlterTable\nALTER TABLE "call" ADD COLUMN "x" TEXT;\n')).toBe(false);
  });

  it("knows which tables carry hand-written triggers, and which a SQLite script rebuilds", () => {
    expect(tablesWithTriggers(path.resolve(import.meta.dirname, "../../prisma/migrations")).has("call")).toBe(true);
    const redefine = 'PRAGMA foreign_keys=OFF;\nCREATE TABLE "new_call" ("id" TEXT NOT NULL PRIMARY KEY);\nINSERT INTO "new_call" SELECT "id" FROM "call";\nDROP TABLE "call";';
    expect(rebuiltTables(redefine)).toEqual(["call"]);
    expect(rebuiltTables('ALTER TABLE "call" ADD COLUMN "x" TEXT;')).toEqual([]);
  });
});
