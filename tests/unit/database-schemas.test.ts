import fs from "node:fs";
import { Prisma } from "@prisma/client";
import { describe, expect, it } from "vitest";
import { COPY_ORDER, NOT_COPIED } from "@/scripts/db-copy";
import { POSTGRES_SCHEMA, SQLITE_SCHEMA, postgresSchema } from "@/scripts/db-schema";

describe("the two databases", () => {
  it("the PostgreSQL schema is the SQLite one with another provider (run `npm run db:schema` after editing models)", () => {
    expect(fs.readFileSync(POSTGRES_SCHEMA, "utf8")).toBe(postgresSchema(fs.readFileSync(SQLITE_SCHEMA, "utf8")));
  });

  it("db:copy copies every model but the short-lived counters, each once", () => {
    const models = Prisma.dmmf.datamodel.models.map((m) => m.name.charAt(0).toLowerCase() + m.name.slice(1));
    expect([...COPY_ORDER, ...NOT_COPIED].sort()).toEqual([...models].sort());
  });
});
